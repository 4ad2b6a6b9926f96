import { afterEach } from 'vitest';

afterEach(() => {
  // A failed test must not leave its dialog open for the next one (flows are one at a time).
  for (const close of document.querySelectorAll<HTMLButtonElement>(
    'dialog[data-bnpl-kit] button[aria-label="Close"]',
  )) {
    close.click();
  }
  document.body.replaceChildren();
});
