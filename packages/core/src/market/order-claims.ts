/**
 * One action at a time per order (R-EP-06, R-EP-08, R-STATE-06): a cancel and a disburse of one
 * order sent together run one after the other, so the second reads the status the first left and is
 * a 409 instead of also reaching the service. Pushes of one user's claims take the same kind of claim
 * (keyed `user:<id>`), so the commitments kept are those of the tokens the service got last. The claim lives in this process, keyed by store (a
 * market restarted on the same store shares it). Why not the order's row lock held over the service
 * call: a service that keeps its own records in the same database (the reference servers' embedded
 * sandbox, one PGlite connection) would then wait for the very transaction waiting for it.
 */
const claims = new WeakMap<object, Map<string, Promise<void>>>();

/** Runs `work` once every earlier claim of `key` in `scope` has settled; the claim ends with it. */
export function oneActionAtATime<T>(scope: object, key: string, work: () => Promise<T>): Promise<T> {
  let held = claims.get(scope);
  if (held === undefined) {
    held = new Map();
    claims.set(scope, held);
  }
  const orders = held;
  const before = orders.get(key) ?? Promise.resolve();
  const run = before.then(work);
  const settled = run.then(
    () => {},
    () => {},
  );
  orders.set(key, settled);
  void settled.then(() => {
    if (orders.get(key) === settled) orders.delete(key);
  });
  return run;
}
