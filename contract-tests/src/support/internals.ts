/**
 * What an error body must never carry (WIRE §2): stack traces, file paths, SQL and the service's own
 * answers. A market written in any language leaks in its own dialect, so the patterns cover the
 * common runtimes (Node, Python, Java, Go, Ruby, PHP, .NET) and the database drivers' messages.
 * Each finding names what it matched, so the report shows the market its leak.
 */

interface Pattern {
  what: string;
  pattern: RegExp;
}

const PATTERNS: readonly Pattern[] = [
  { what: 'a stack frame', pattern: /\bat (?:async )?[\w$.<>[\]]+ \([^\s()]+:\d+:\d+\)/ },
  { what: 'a stack frame', pattern: /\bat [^\s()]+\.\w+:\d+:\d+/ },
  { what: 'a stack frame', pattern: /File "[^"]+", line \d+/ },
  { what: 'a stack frame', pattern: /\bat [\w$.]+\([\w$]+\.(?:java|kt|scala):\d+\)/ },
  { what: 'a stack frame', pattern: /goroutine \d+ \[|\.go:\d+ \+0x/ },
  { what: 'a stack trace', pattern: /Traceback \(most recent call last\)/ },
  {
    what: 'an exception name',
    pattern:
      /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|NullPointerException|KeyError|AttributeError): /,
  },
  {
    what: 'a file path',
    pattern:
      /(?:file:\/\/|(?:^|[\s"'(=])\/(?:home|usr|opt|var|srv|app|src|root|tmp|Users|workspace|work)\/[^\s"']+|[A-Za-z]:\\[^\s"']+)/,
  },
  { what: 'a source file name', pattern: /[\w-]+\.(?:m?js|cjs|ts|py|java|go|rb|php|cs)(?::\d+)/ },
  { what: 'node_modules', pattern: /node_modules/ },
  {
    what: 'SQL',
    pattern:
      /\b(?:SELECT\s+[\w*,\s."]+\s+FROM|INSERT\s+INTO|UPDATE\s+[\w."]+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b/i,
  },
  {
    what: 'a database error',
    pattern:
      /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|duplicate key value|SQLITE_\w+|ER_\w+:|relation "[^"]+" does not exist|ECONNREFUSED/,
  },
  // The sandbox's own answers: an envelope, or the text of an injected fault.
  { what: "the service's answer (an envelope)", pattern: /"success"\s*:\s*false/ },
  { what: "the service's answer (an injected fault)", pattern: /Injected (?:fault|timeout|malformed)/ },
];

/** The kinds of internals found in `text`, empty when it is clean. */
export function findInternals(text: string): string[] {
  const found: string[] = [];
  for (const { what, pattern } of PATTERNS) {
    const match = pattern.exec(text);
    if (match && !found.some((f) => f.startsWith(what)))
      found.push(`${what} (${JSON.stringify(match[0].trim().slice(0, 80))})`);
  }
  return found;
}
