/**
 * The sandbox functions the embedded sandbox needs, named, so that this module (imported only
 * when the sandbox runs here) is all of `@bnpl-kit/sandbox` that a bundle loads: importing the
 * package's namespace would pull in every export, msw's handlers (and msw with graphql) among them.
 */
export { adminExposure, createPersistentSandbox, createSandboxFetch } from '@bnpl-kit/sandbox';
