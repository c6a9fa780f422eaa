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

// TestFaults races the delivery guarantees with two engines on one
// embedded store (see storetest.RunFaults).
func TestFaults(t *testing.T) {
	storetest.RunFaults(t, storetest.FaultConfig{Chats: 60, Messages: 8}, func(*testing.T) convai.Store {
		return memstore.New()
	})
}
