package httpapi

import (
	"crypto/sha256"
	"crypto/subtle"
)

// secret is a shared secret kept as its SHA-256, so that comparing a
// request's header with it takes the same time whatever the header holds:
// not even the secret's length leaks.
type secret []byte

func newSecret(s string) secret {
	if s == "" {
		return nil
	}
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

// matches reports, in constant time, whether got is the secret.
func (s secret) matches(got string) bool {
	sum := sha256.Sum256([]byte(got))
	return subtle.ConstantTimeCompare(sum[:], s) == 1
}
