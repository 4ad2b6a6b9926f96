/**
 * The rules of docs/protocol.md that no check exercises, each with the reason it cannot be observed
 * over HTTP by a suite that plays the service (or that it is not a rule of the market at all). The
 * conformance matrix prints the reason in place of checks; a rule with neither fails its test.
 */
export const NOT_OBSERVABLE: Readonly<Record<string, string>> = {
  'R-MONEY-03':
    'within the bounds of R-MONEY-02 and R-LINE-04 (15 digits, quantity ≤ 10000, 15-digit subtotals and total) every value is below 2^53, where floating point is exact, so no answer tells the two apart',
  'R-ERR-14':
    'a permission, not a requirement: certify reports a market without the kit vocabulary as advice, never as a failure',
  'R-STATE-04': "the log is the market's own; nothing of it reaches the wire",
  'R-WH-10':
    "certify gives the market SERVICE_PUBLIC_KEY; where a market without it keeps the key it fetched is inside the market (a key taken from the request is caught by R-WH-12's checks)",
  'R-SVC-16':
    'certify gives the market SERVICE_PUBLIC_KEY (as for R-WH-10), so the public-key call is not made; packages/core tests the entity_id it sends',
  'R-WH-11':
    'with SERVICE_PUBLIC_KEY configured (as certify does) no key is fetched, so the refresh rate has nothing to show',
  'R-WH-21':
    "a rule of the service's sender (the sandbox), not of the market; packages/sandbox's tests check the schedule",
  'R-EP-22': "the reference servers' own extras, not part of a market's contract",
  'R-CLAIM-02':
    "depends on the market's APP_PROVIDING_BASIC_PROFILE, which the market sets and certify cannot change",
  'R-CLAIM-08':
    'an option (CLAIM_SCOPE_HASH=all-scopes) for services that verify the prior way; certify checks the default, packages/core tests the option byte for byte against @credify/crypto',
  'R-CONF-01': "start-up of the market's process: its exit and output, not HTTP",
  'R-CONF-02': "the market's logs and output, not HTTP (packages/core tests that secrets are never printed)",
  'R-CONF-03': 'output of `bnpl-kit sandbox` / the reference servers, tested in packages/cli',
  'R-CONF-04': "start-up of the market's process in production, not HTTP (packages/core tests the refusals)",
};
