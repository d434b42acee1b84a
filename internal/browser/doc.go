// Package browser drives a real headless Chromium over the Chrome DevTools Protocol
// (CDP), for tests that check graphdp's HTML pages as a reader's browser shows them.
// It is test support: nothing in graphdp's binaries imports it.
//
// Invariants:
//
//  1. One Browser is one Chromium process with its own temporary profile, started in
//     its own process group; Close ends that group (and only it) and removes the
//     profile, also after a failure.
//  2. The DevTools address is read from Chromium's stderr ("DevTools listening on
//     ws://…"), so the port is the one Chromium chose (--remote-debugging-port=0).
//  3. A Page records every problem a reader could meet, from the moment it is
//     created: an uncaught exception (Runtime.exceptionThrown), console.error or
//     console.assert (Runtime.consoleAPICalled), a browser log entry of level error
//     (Log.entryAdded), and every request for anything but the page itself
//     (Network.requestWillBeSent): a self-contained page makes none.
//  4. Calls are matched to replies by id; events are handled in the order they
//     arrive; a call never outlives its context.
package browser
