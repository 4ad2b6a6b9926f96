/**
 * The storefront in the browser: sign in as a demo user, fill a cart, and pay later with the web
 * SDK, in the specification's order: check availability → create the order through the market
 * backend (the shop's `/shop/checkout`) → `presentModally` → completion → the order's status, which
 * the market learns by webhook, shown as it changes (polled from `/shop/orders`).
 */
import { type BnplCompletion, type BnplUser, configure } from '@bnpl-kit/web';
import type { BrowserConfig } from '../page.js';
import type { ShopOrderView } from '../shop-orders.js';
import { shopApi } from './api.js';
import { credifyIds } from './credify-ids.js';
import {
  $,
  type CartLineView,
  type NextSteps,
  type ProviderMove,
  renderCart,
  renderOrders,
  showMessage,
} from './view.js';

const config = JSON.parse($('shop-config').textContent ?? '{}') as BrowserConfig;
// A path means "the service is mounted on this origin" (the reference servers' embedded sandbox).
const serviceUrl = new URL(config.serviceUrl, location.origin).toString();
const sdk = configure({ apiKey: config.apiKey, env: config.env, appName: config.appName, serviceUrl });

const FINAL = new Set(['PAID', 'CANCELED']);
const USER_KEY = 'demo-shop:user';
const knownCredifyIds = credifyIds(sessionStorage, serviceUrl);

let products: { id: string; name: string; price: string }[] = [];
let user: BnplUser | undefined;
let token: string | undefined;
let available: boolean | undefined;
let busy = false;
let orders: ShopOrderView[] = [];
const cart = new Map<string, number>();

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function updateButtons(): void {
  $<HTMLButtonElement>('pay-later').disabled = busy || !user || cart.size === 0 || available === false;
  $<HTMLButtonElement>('passport-button').disabled = busy || !user?.credifyId;
}

function renderCartView(): void {
  const lines: CartLineView[] = [];
  for (const [productId, quantity] of cart) {
    const product = products.find((p) => p.id === productId);
    if (product) lines.push({ productId, name: product.name, price: product.price, quantity });
  }
  renderCart(lines, (productId, delta) => {
    const next = (cart.get(productId) ?? 0) + delta;
    if (next <= 0) cart.delete(productId);
    else cart.set(productId, Math.min(next, 99));
    renderCartView();
  });
  updateButtons();
}

// ---- Orders: the status the market's webhooks keep current ----------------------------------------

let pollTimer: ReturnType<typeof setTimeout> | undefined;
let pollUntil = 0;

// The sandbox's provider buttons, when its admin API is on this origin (the embedded sandbox).
const sandboxHere = config.env === 'sandbox' && config.serviceUrl.startsWith('/');
const nextSteps: NextSteps = {
  providerButtons: sandboxHere,
  marketDisburses: config.mode === 'data-sharing',
  onMove: (orderId, move) => void providerMove(orderId, move),
};

async function refreshOrders(): Promise<void> {
  if (!token) return;
  orders = await shopApi.orders(token);
  renderOrders(orders, nextSteps);
}

async function providerMove(orderId: string, move: ProviderMove): Promise<void> {
  try {
    await shopApi.providerMove(config.serviceUrl, orderId, move);
    showMessage(
      move === 'ready'
        ? 'The provider confirmed the order is ready; the shop is told by webhook.'
        : 'The provider paid the shop; the order is complete.',
      'good',
    );
  } catch (error) {
    showMessage(`The provider could not do that: ${errorText(error)}`, 'bad');
  }
  watchOrders();
}

/** Polls while an order is still moving: every second for ten minutes after the last purchase. */
function watchOrders(): void {
  pollUntil = Date.now() + 10 * 60_000;
  const tick = async () => {
    pollTimer = undefined;
    await refreshOrders().catch(() => {});
    if (orders.some((o) => !FINAL.has(o.status)) && Date.now() < pollUntil) {
      pollTimer = setTimeout(tick, 1000);
    }
  };
  if (pollTimer === undefined) pollTimer = setTimeout(tick, 0);
}

// ---- Availability, checkout and the BNPL dialog --------------------------------------------------

async function checkAvailability(): Promise<boolean> {
  if (!user) return false;
  const hint = $('availability');
  hint.textContent = 'Checking pay later…';
  try {
    const result = await sdk.bnpl.getBNPLAvailability(user);
    // The specification's writable service user ID: written back onto our user.
    if (result.credifyId) {
      user.credifyId = result.credifyId;
      knownCredifyIds.set(user.id, result.credifyId);
    }
    available = result.isAvailable;
    hint.textContent = available
      ? config.mode === 'data-sharing'
        ? `Pay later is available. Your offers depend on the profile ${config.appName} shares with the provider: loyalty members get more.`
        : 'Pay later: 3 interest-free instalments.'
      : 'Pay later is not available for this account.';
  } catch (error) {
    available = undefined;
    hint.textContent = `Could not check pay later: ${errorText(error)}`;
  }
  updateButtons();
  return available === true;
}

const COMPLETION_MESSAGES: Record<BnplCompletion['status'], [string, 'info' | 'good' | 'bad']> = {
  approved: [
    'Approved! Next the provider confirms the order is ready and pays the shop; your order below follows each step.',
    'good',
  ],
  rejected: ['The provider declined this purchase. Nothing was charged.', 'bad'],
  pending: ['The provider is still deciding; the order status below will update.', 'info'],
  failed: ['Pay later failed. Nothing was charged.', 'bad'],
  dismissed: ['Pay later was closed before finishing; the order stays pending.', 'info'],
};

function presentModally(
  currentUser: BnplUser,
  session: string,
  order: { id: string; totalAmount: { value: string } },
) {
  return new Promise<BnplCompletion>((resolve) => {
    sdk.bnpl.presentModally({
      userProfile: currentUser,
      orderInfo: { orderId: order.id, orderAmount: { value: order.totalAmount.value, currency: 'VND' } },
      pushClaimTokensTask: (credifyId, done) => {
        // Basic mode shares no user data: report success at once.
        if (config.mode !== 'data-sharing') return done(true);
        shopApi.pushClaims(config.marketPrefix, session, currentUser.id, credifyId).then(
          () => done(true),
          () => done(false),
        );
      },
      onCompletion: resolve,
    });
  });
}

async function payLater(): Promise<void> {
  const currentUser = user;
  const session = token;
  if (!currentUser || !session || busy) return;
  busy = true;
  updateButtons();
  try {
    if (available !== true && !(await checkAvailability())) {
      showMessage('Pay later is not available right now.', 'bad');
      return;
    }
    showMessage('Creating your order…');
    const items = [...cart].map(([product_id, quantity]) => ({ product_id, quantity }));
    const order = await shopApi.checkout(session, items);
    cart.clear();
    renderCartView();
    await refreshOrders();
    // Follow the order while the dialog is open too: the webhooks do not wait for it to close.
    watchOrders();
    showMessage('Finish paying in the pay-later window.');
    const completion = await presentModally(currentUser, session, order);
    const [text, tone] = COMPLETION_MESSAGES[completion.status];
    showMessage(text, tone);
    watchOrders();
  } catch (error) {
    showMessage(`Something went wrong: ${errorText(error)}`, 'bad');
  } finally {
    busy = false;
    updateButtons();
  }
}

function showPassport(): void {
  if (!user?.credifyId) return;
  try {
    sdk.passport.showDetail({
      user,
      marketId: config.marketId,
      productTypes: ['consumerBNPL'],
      onDismiss: () => void refreshOrders().catch(() => {}),
    });
  } catch (error) {
    showMessage(`Could not open your pay-later account: ${errorText(error)}`, 'bad');
  }
}

// ---- Sign-in ---------------------------------------------------------------------------------------

async function signIn(userId: string): Promise<void> {
  const { user: shopUser, session_token } = await shopApi.login(userId);
  token = session_token;
  user = {
    id: shopUser.id,
    credifyId: knownCredifyIds.get(shopUser.id),
    firstName: shopUser.first_name ?? undefined,
    lastName: shopUser.last_name ?? undefined,
    email: shopUser.email ?? undefined,
    phoneNumber: shopUser.phone_number ?? undefined,
    countryCode: shopUser.country_code ?? undefined,
  };
  sessionStorage.setItem(USER_KEY, shopUser.id);
  available = undefined;
  updateButtons();
  await refreshOrders();
  // Orders still moving (e.g. after a reload) are followed until they settle.
  if (orders.some((o) => !FINAL.has(o.status))) watchOrders();
  await checkAvailability();
  // Tests (and curious people) can tell which user the page has finished signing in.
  document.body.dataset.signedIn = shopUser.id;
}

async function start(): Promise<void> {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-add]')) {
    button.addEventListener('click', () => {
      const id = button.dataset.add!;
      cart.set(id, Math.min((cart.get(id) ?? 0) + 1, 99));
      renderCartView();
    });
  }
  $('pay-later').addEventListener('click', () => void payLater());
  $('passport-button').addEventListener('click', showPassport);
  const [catalogue, users] = await Promise.all([
    fetch('/shop/products').then((r) => r.json() as Promise<{ products: typeof products }>),
    shopApi.users(),
  ]);
  products = catalogue.products;
  const select = $<HTMLSelectElement>('user-select');
  select.replaceChildren(...users.map((u) => new Option(u.name, u.id)));
  const remembered = sessionStorage.getItem(USER_KEY);
  if (remembered && users.some((u) => u.id === remembered)) select.value = remembered;
  select.addEventListener('change', () => {
    void signIn(select.value).catch((error) => showMessage(`Sign-in failed: ${errorText(error)}`, 'bad'));
  });
  renderCartView();
  if (select.value) await signIn(select.value);
  document.body.dataset.ready = 'true';
}

start().catch((error) => showMessage(`The shop could not start: ${errorText(error)}`, 'bad'));
