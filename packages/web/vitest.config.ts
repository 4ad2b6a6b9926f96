import { defineConfig, mergeConfig } from 'vitest/config';
import { unitConfig } from '../../vitest.shared';

// The SDK drives the DOM (dialog, iframe, postMessage), so its tests run in happy-dom, as if on a
// shop at https://shop.example. Iframes get a window but never navigate (no test reaches the
// network); the tests play the hosted page through a stand-in for it (see test/helpers.ts).
export default mergeConfig(
  unitConfig,
  defineConfig({
    test: {
      environment: 'happy-dom',
      environmentOptions: {
        happyDOM: {
          url: 'https://shop.example/checkout',
          settings: {
            enableIframePageLoading: true,
            navigation: { disableChildFrameNavigation: true, disableFallbackToSetURL: true },
          },
        },
      },
      setupFiles: ['./test/setup.ts'],
    },
  }),
);
