/**
 * Test workers' global `fetch` opens a new connection for every request instead of reusing an idle
 * kept-alive one.
 *
 * Why: Node's fetch keeps an idle connection for the server's `Keep-Alive: timeout` hint minus a
 * margin (3 s against the kit's 5 s), and timers on a machine whose cores are busy fire seconds
 * late, so a test could send its next request on a connection the server was closing at that very
 * moment: `fetch failed` with `ECONNRESET`, and nothing to resend, since fetch cannot know whether a
 * POST reached the server (seen in apps/reference-kit's fuzz and worker-metrics tests under load).
 * A fresh connection per request has no such window; on 127.0.0.1 it costs a fraction of a
 * millisecond. Tests of keep-alive itself use their own `node:http` agents and are not affected.
 *
 * undici's major matches the one bundled in Node 20 (6.x): Node's fetch reads the dispatcher this
 * sets through a global symbol and calls it with its own handler objects.
 */
import { Agent, setGlobalDispatcher } from 'undici';

// `pipelining: 0` is undici's switch for "no keep-alive": each request gets its own connection.
setGlobalDispatcher(new Agent({ pipelining: 0 }));
