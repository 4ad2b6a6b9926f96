/**
 * What a server prints when it starts in sandbox mode: where it listens, and a walkthrough a new
 * user pastes into bash, with this server's real URL and token filled in. It only needs curl and
 * node (which ran this server). The same text is in the README; a test runs it with bash.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { DEMO_USERS, GOLD_POINTS } from './demo-data.js';
import { SANDBOX_MOUNT } from './embedded-sandbox.js';

export interface WalkthroughInput {
  mode: IntegrationMode;
  baseUrl: string;
  /**
   * Printed into the script only when given. The start banner gives it only until a start that
   * printed it succeeded (secrets are shown once); otherwise the script reads `MARKET_API_TOKEN` from
   * the environment or from `keyFile`.
   */
  marketApiToken: string | undefined;
  /** `APP_API_KEY`: the SDK's key, used for the availability check in data-sharing mode. Same rule. */
  apiKey: string | undefined;
  /** An external sandbox service (`bnpl-kit sandbox`); default: the embedded one under this server. */
  serviceUrl?: string | undefined;
  /** The sandbox key file the script reads secrets from when they are not printed. */
  keyFile?: string | undefined;
  /**
   * Data-sharing mode with an external sandbox: what the service's dashboard must hold for this
   * server (its organisation, the basic profile it provides, the demo offers). The script sets it
   * through the sandbox's admin API, so a plain `bnpl-kit sandbox` needs no further flags, and takes
   * the organisation's API key from the answer (a fresh shell needs no exports).
   */
  dashboard?: DashboardInput | undefined;
}

export interface DashboardInput {
  appId: string;
  basicProfileKeys: readonly string[];
  offers: readonly Record<string, unknown>[];
}

/** A shell expression for a secret: the value itself, or the variable, else the key file's entry. */
function secret(name: string, value: string | undefined, keyFile: string | undefined): string {
  if (value !== undefined) return q(value);
  const fromFile =
    keyFile === undefined ? '' : `$(node -p ${q(`require(process.argv[1]).${name} ?? ''`)} ${q(keyFile)})`;
  return `"\${${name}:-${fromFile}}"`;
}

/**
 * The SDK's API key. An external sandbox issued its own: the key file holds the embedded sandbox's,
 * which that service does not know, so it is never read then. With `dashboard` the script reads the
 * key from the sandbox's answer (step 0); without, from the `APP_API_KEY` export the sandbox printed.
 */
function apiKey(input: WalkthroughInput): string | undefined {
  if (input.apiKey !== undefined || input.serviceUrl === undefined) {
    return secret('APP_API_KEY', input.apiKey, input.keyFile);
  }
  if (input.dashboard !== undefined) return undefined;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, printed as it is
  return '"${APP_API_KEY:?export APP_API_KEY as bnpl-kit sandbox printed it}"';
}

/**
 * Step 0 against an external sandbox: the dashboard settings of data-sharing mode, set through the
 * admin API (PATCH keeps the webhook URLs and keys the sandbox was started with). Its answer is the
 * organisation, whose first API key the SDK steps use.
 */
function dashboardSteps(dashboard: DashboardInput): string[] {
  const settings = JSON.stringify({
    offer_filtering_url: '@BASE@/v1/offers/filter',
    api_base_url: '@BASE@/v1',
    basic_profile_keys: dashboard.basicProfileKeys,
    approved_offers: dashboard.offers,
  })
    .split('@BASE@')
    .map(q)
    .join('"$BASE"');
  return [
    '# 0. The service’s dashboard, here the sandbox’s admin API: this server’s offer filter, the basic',
    `#    profile it provides and the approved offers (one only for loyalty members with ${GOLD_POINTS} points).`,
    '#    The answer is the organisation; the SDK’s steps below use its API key:',
    `API_KEY=$(curl -s -X PATCH $SANDBOX/organizations/${q(dashboard.appId)} -H 'Content-Type: application/json' \\`,
    `  -d ${settings} | json api_keys.0.key)`,
    '',
  ];
}

const q = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

// Small node one-liners instead of jq, which a fresh machine may not have.
const HELPERS = `json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{let v=JSON.parse(s);for(const k of process.argv[1].split("."))v=v?.[k];if(v===undefined){console.error("no "+process.argv[1]+" in: "+s.slice(0,300));process.exit(1)}console.log(typeof v==="string"?v:JSON.stringify(v))})' "$1"; }
wait_status() { for i in $(seq 50); do s=$(curl -s "$BASE/bnpl/complete?order_id=$1" -H "Authorization: Bearer $TOKEN" | json status); if [ "$s" = "$2" ]; then echo "stored status of $1: $s"; return 0; fi; sleep 0.2; done; echo "stored status of $1: $s (expected $2)"; return 1; }
# Waits (up to 10 s) until every delivery for the order has finished its latest attempt, so it
# never prints a delivery whose first attempt has not happened yet.
webhooks() { for i in $(seq 50); do curl -s "$SANDBOX/webhooks/deliveries" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const ds=JSON.parse(s).deliveries.filter(d=>d.payload.order_id===process.argv[1]);if((ds.length===0||ds.some(d=>!d.attempts.at(-1)?.outcome))&&process.argv[2]<50)process.exit(3);for(const d of ds){const a=d.attempts.at(-1);console.log(d.event_type,d.payload.order_status??"is_fulfilled="+d.payload.is_fulfilled,"->",a?.response_status,a?.response_body)}})' "$1" "$i" && return 0; sleep 0.2; done; return 1; }`;

const ORDER_BODY = (prefix: string) =>
  `'{"reference_id":"${prefix}-'$RANDOM$RANDOM'","total_amount":{"value":"1500000","currency":"VND"},"order_lines":[{"name":"Rice cooker","reference_id":"sku-rice-cooker","image_url":"https://shop.example/rice-cooker.png","product_url":"https://shop.example/rice-cooker","quantity":1,"measment_unit":"EACH","unit_price":{"value":"1500000","currency":"VND"},"subtotal":{"value":"1500000","currency":"VND"}}]}'`;

function createOrder(variable: string, prefix: string): string {
  return [
    `${variable}=$(curl -s -X POST $BASE/v1/orders -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\`,
    `  -d ${ORDER_BODY(prefix)} | json id); echo "${variable}=$${variable}"`,
  ].join('\n');
}

function basicSteps(): string[] {
  return [
    '# 1. Up and ready? The demo user (sandbox only):',
    'curl -s $BASE/readyz; echo',
    'curl -s $BASE/v1/demo-user; echo',
    '',
    '# 2. Create an order, as the market’s backend does (Bearer MARKET_API_TOKEN):',
    createOrder('ORDER', 'demo'),
    '',
    '# 3. Play the provider: approve. The sandbox sends a signed webhook to $BASE/v1/webhook,',
    '#    and the stored status changes:',
    'curl -s -X POST $SANDBOX/orders/$ORDER/approve | json order_status',
    'wait_status $ORDER APPROVED',
    '',
    '# 4. Ready for disbursement, then paid (basic mode: the service disburses by itself):',
    'curl -s -X POST $SANDBOX/orders/$ORDER/ready | json order_status',
    'wait_status $ORDER DISBURSING',
    'curl -s -X POST $SANDBOX/orders/$ORDER/paid | json order_status',
    'wait_status $ORDER PAID',
    '',
    '# 5. The webhooks the sandbox sent and this server’s answers; the order status via the service:',
    'webhooks $ORDER',
    'curl -s $BASE/v1/orders/service/$ORDER -H "Authorization: Bearer $TOKEN"; echo',
  ];
}

function dataSharingSteps(): string[] {
  // A failed call says why and stops the script, instead of printing "credify_id: undefined".
  const offers = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=JSON.parse(s);if(!b.data?.credify_id){console.error("the service answered: "+s.slice(0,300));process.exit(1)}console.log("credify_id:",b.data.credify_id);for(const o of b.data?.offers??[])console.log(" ",o.code,"rank",o.evaluation_result?.rank)})'`;
  const availability = (user: string) =>
    `curl -s -X POST $SERVICE/v1/claim-providers/offers -H "Authorization: Bearer $ACCESS" -H 'Content-Type: application/json' -d '{"local_id":"${user}","product_types":["consumerBNPL"]}'`;
  return [
    `# 1. Demo users: ${DEMO_USERS.map((u, i) => `${u.profile.name?.given} (${u.customClaims.loyalty?.points}${i === 0 ? ' loyalty points' : ''})`).join(' and ')}, each with a session token:`,
    'curl -s $BASE/v1/demo-user | json users',
    'SESSION=$(curl -s $BASE/v1/demo-user | json users.0.session_token)',
    '',
    '# 2. Availability, as the SDK checks it: the service asks this server’s offer filter',
    '#    (POST /v1/offers/filter) to rank its offers for the user. An gets the gold offer, Bình does not.',
    '#    A rank counts the condition levels met in a row, and an offer without a condition ranks 1 for',
    '#    everyone: both of An’s offers rank 1; what sets her apart is that the gold one is offered at all.',
    'ACCESS=$(curl -s -X POST $SERVICE/v1/token -H "X-API-KEY: $API_KEY" | json data.access_token)',
    `${availability('user-an')} | ${offers}`,
    `${availability('user-binh')} | ${offers}`,
    `CREDIFY_ID=$(${availability('user-an')} | json data.credify_id)`,
    '',
    '# 3. Push An’s claims, as the SDK’s pushClaimTokensTask does (with An’s session); the service',
    '#    now holds one signed claim token per scope:',
    'curl -s -X POST $BASE/v1/push-claims -H "Authorization: Bearer $SESSION" -H \'Content-Type: application/json\' \\',
    '  -d \'{"id":"user-an","credify_id":"\'$CREDIFY_ID\'"}\'; echo',
    'curl -s $SANDBOX/claims/$CREDIFY_ID | json claim_tokens | head -c 300; echo',
    '',
    '# 4. An order: the provider approves, then confirms readiness. This server enqueues a',
    '#    disbursement job with that webhook; its worker asks the service to disburse → PAID:',
    createOrder('ORDER', 'demo'),
    'curl -s -X POST $SANDBOX/orders/$ORDER/approve | json order_status',
    'wait_status $ORDER APPROVED',
    'curl -s -X POST $SANDBOX/orders/$ORDER/ready | json order_status',
    'wait_status $ORDER PAID',
    'webhooks $ORDER',
    'curl -s "$SANDBOX/disbursements?order_id=$ORDER" | json disbursements   # exactly one for this order',
    '',
    '# 5. Another order, approved, then cancelled by the market’s backend:',
    createOrder('ORDER2', 'demo-cancel'),
    'curl -s -X POST $SANDBOX/orders/$ORDER2/approve | json order_status',
    'wait_status $ORDER2 APPROVED',
    'curl -s -X POST $BASE/v1/orders/$ORDER2/cancel -H "Authorization: Bearer $TOKEN"; echo',
    'wait_status $ORDER2 CANCELED',
  ];
}

export function walkthroughScript(input: WalkthroughInput): string {
  const dataSharing = input.mode === 'data-sharing';
  const key = dataSharing ? apiKey(input) : undefined;
  const dashboard = dataSharing && key === undefined ? input.dashboard : undefined;
  return [
    `BASE=${input.baseUrl}`,
    `TOKEN=${secret('MARKET_API_TOKEN', input.marketApiToken, input.keyFile)}`,
    ...(key !== undefined ? [`API_KEY=${key}`] : []),
    `SERVICE=${input.serviceUrl ?? `$BASE${SANDBOX_MOUNT}`}`,
    'SANDBOX=$SERVICE/sandbox',
    HELPERS,
    '',
    ...(dashboard ? dashboardSteps(dashboard) : []),
    ...(dataSharing ? dataSharingSteps() : basicSteps()),
    '',
  ].join('\n');
}

export interface BannerInput extends WalkthroughInput {
  name: string;
  framework: string;
  database: string;
  serviceUrl: string;
  embedded: boolean;
  /** `export` lines of the sandbox keys no successful start has printed yet. */
  keyExports: readonly string[];
  keyFile: string | undefined;
  /** `PUBLIC_BASE_URL` + `/v1/webhook`: what signatures are verified against. */
  webhookUrl: string;
  /** The demo shop, when served (embedded sandbox). */
  shopUrl?: string | undefined;
}

export function startBanner(input: BannerInput): string {
  const lines = [
    '',
    `${input.name} (${input.mode} mode, sandbox, ${input.framework}) listening on ${input.baseUrl}`,
    `  database: ${input.database}`,
    `  service:  ${input.embedded ? 'embedded sandbox at ' : ''}${input.serviceUrl}`,
    input.embedded
      ? `  webhooks: ${input.webhookUrl}`
      : // The signature covers the URL as registered: localhost and 127.0.0.1 are different URLs.
        `  webhooks: register exactly ${input.webhookUrl} with the service (signatures cover the URL as registered; set PUBLIC_BASE_URL to change it)`,
  ];
  if (input.shopUrl) {
    lines.push('', `Demo shop: open ${input.shopUrl} in a browser and buy something with Pay later.`);
  }
  if (input.embedded) {
    lines.push(
      `Sandbox console: ${input.serviceUrl}/sandbox/console (orders, webhooks, the provider's buttons).`,
    );
  }
  if (input.keyExports.length > 0) {
    lines.push(
      '',
      `Sandbox keys (kept in ${input.keyFile}, mode 0600; printed until a start succeeds). To reuse them elsewhere:`,
      ...input.keyExports,
    );
  } else if (input.keyFile) {
    lines.push('', `Sandbox keys: in ${input.keyFile} (printed at the first successful start).`);
  }
  lines.push(
    '',
    input.embedded
      ? 'Walkthrough: paste into bash (needs curl and node). Stop the server with Ctrl-C.'
      : `Walkthrough: paste into bash (needs curl, node and the admin API of a bnpl-kit sandbox at ${input.serviceUrl}).`,
    '',
    // The embedded sandbox lives under BASE: only an external one is named (and its own keys used).
    walkthroughScript({ ...input, serviceUrl: input.embedded ? undefined : input.serviceUrl }),
  );
  return `${lines.join('\n')}\n`;
}
