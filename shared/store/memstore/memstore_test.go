package memstore_test

import (
	"testing"
	"time"

	"github.com/duetbot/duet/shared/convai"
	"github.com/duetbot/duet/shared/store/memstore"
	"github.com/duetbot/duet/shared/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time, ttl time.Duration) convai.Store {
		return memstore.New(memstore.WithClock(now), memstore.WithTTL(ttl))
	})
}
