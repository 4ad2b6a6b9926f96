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
  // .NET (`… in /src/Orders.cs:line 42`), PHP (`#0 index.php(12): create()`), Elixir and Rust frames.
  { what: 'a stack frame', pattern: /:line \d+\b|\.php\(\d+\)|\(\w+ [\d.]+\) lib\/[\w/]+\.ex:\d+/ },
  { what: 'a stack trace', pattern: /Traceback \(most recent call last\)|\bStack trace:\s*(?:#0|\n)/ },
  { what: 'a panic', pattern: /\bpanic: |runtime error: |thread '[^']*' panicked at / },
  {
    what: 'an exception name',
    pattern:
      /\b(?:TypeError|ReferenceError|SyntaxError|RangeError|NullPointerException|KeyError|AttributeError|ValueError|IndexError|ZeroDivisionError|NoMethodError|NameError|IntegrityError|OperationalError|PDOException): /,
  },
  {
    what: "a runtime's class name",
    pattern:
      /\b(?:java|javax|jakarta|org\.springframework|org\.hibernate|com\.fasterxml|System|Microsoft)\.[\w.]*(?:Exception|Error)\b|\b(?:ActiveRecord|PG|Mysql2|Sequel)::\w+|\b(?:django|sqlalchemy|psycopg2?|pymysql|asyncpg)\.[\w.]+|\*\* \([\w.]+(?:Error|Exception)\)/,
  },
  {
    what: 'a file path',
    pattern:
      /(?:file:\/\/|(?:^|[\s"'(=])\/(?:home|usr|opt|var|srv|app|src|root|tmp|Users|workspace|work)\/[^\s"']+|[A-Za-z]:\\[^\s"']+)/,
  },
  {
    what: 'a source file name',
    pattern: /[\w-]+\.(?:m?js|cjs|ts|py|java|kt|scala|go|rb|php|cs|rs|exs?|swift|c|cpp)(?::\d+)/,
  },
  { what: 'node_modules', pattern: /node_modules/ },
  {
    what: 'SQL',
    pattern:
      /\b(?:SELECT\s+[\w*,\s."]+\s+FROM|INSERT\s+INTO|UPDATE\s+[\w."]+\s+SET|DELETE\s+FROM|CREATE\s+TABLE)\b/i,
  },
  {
    what: 'a database error',
    pattern:
      /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|duplicate key value|SQLITE_\w+|ER_\w+:|relation "[^"]+" does not exist|ECONNREFUSED|SQLSTATE\[?\w*|Duplicate entry '[^']*' for key|error in your SQL syntax|(?:UNIQUE|NOT NULL|FOREIGN KEY|CHECK) constraint failed|Violation of (?:PRIMARY|UNIQUE) KEY constraint|\bORA-\d{5}\b/,
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
