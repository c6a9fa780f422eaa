// Preloaded into dynalite by .ci/dynalite. dynalite rethrows the error of a
// request its client aborted (req.on('error', ...) throws ECONNRESET), which
// ends the server and fails every later test with "connection refused". A
// client that gives up on a request under load is the client's business:
// the server goes on; any other uncaught error still ends it.
process.on('uncaughtException', (err) => {
  if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
    console.error('dynalite-keepalive: a client aborted a request; going on');
    return;
  }
  console.error(err);
  process.exit(1);
});
