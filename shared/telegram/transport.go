package telegram

import (
	"net"
	"net/http"
	"time"
)

// Settings of the pooled HTTP transport every Client uses unless
// WithHTTPClient replaces it.
const (
	// DefaultMaxIdleConnsPerHost is how many idle keep-alive connections
	// to the Bot API are kept: as many as replies are sent at once by a
	// busy `duet serve` (and the poller's workers), so that a burst does
	// not close what the next burst would reuse (net/http keeps 2).
	DefaultMaxIdleConnsPerHost = 128
	// DefaultIdleConnTimeout closes a connection idle this long. It is
	// below the keep-alive timeouts of common servers and proxies (60–75 s),
	// so that the client, not the server, closes an idle connection, and a
	// connection left idle across a frozen Lambda is dropped, not reused.
	DefaultIdleConnTimeout = 30 * time.Second
	// DefaultDialTimeout bounds opening a TCP connection.
	DefaultDialTimeout = 10 * time.Second
	// DefaultTLSHandshakeTimeout bounds a TLS handshake.
	DefaultTLSHandshakeTimeout = 10 * time.Second
)

// sharedTransport is the pooled, keep-alive HTTP/1.1 transport of every
// Client made without WithHTTPClient: one pool per process, so all clients
// of one host share their idle connections.
var sharedTransport = newTransport()

func newTransport() *http.Transport {
	d := &net.Dialer{Timeout: DefaultDialTimeout, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		MaxIdleConns:          4 * DefaultMaxIdleConnsPerHost,
		MaxIdleConnsPerHost:   DefaultMaxIdleConnsPerHost,
		IdleConnTimeout:       DefaultIdleConnTimeout,
		TLSHandshakeTimeout:   DefaultTLSHandshakeTimeout,
		ExpectContinueTimeout: time.Second,
		// HTTP/1.1: a custom DialContext turns off HTTP/2 unless
		// ForceAttemptHTTP2 is set. Many keep-alive connections spread the
		// replies; one multiplexed connection would carry every long poll
		// and reply behind one TCP window.
		ForceAttemptHTTP2: false,
	}
}
