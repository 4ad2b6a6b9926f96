/** The reference server on Express (FRAMEWORK=express). */
import { sendResponse } from '@bnpl-kit/core/node';
import { bnplErrorHandler, createBnplRouter } from '@bnpl-kit/express';
import express from 'express';
import { type FrameworkStarter, logged, notFound, urlOf } from './shared.js';

export const startExpress: FrameworkStarter = (market, own, logger) => {
  const app = express();
  app.disable('x-powered-by');
  for (const [path, route] of Object.entries(own)) {
    app.get(
      path,
      async (req, res) =>
        void (await sendResponse(
          res,
          await route(urlOf(req), req.headers.accept ?? '', req.headers.authorization ?? ''),
        )),
    );
  }
  app.use(createBnplRouter(market));
  app.use((req, res) => void sendResponse(res, notFound(req.path)));
  // Last: Express's own error page (HTML with a stack) must never answer.
  app.use(bnplErrorHandler(logged(logger)));
  return app;
};
