/** The `@bnpl-kit/core/openapi` entry: the generated OpenAPI documents (WIRE §5, §6). */
export * from './openapi/index.js';
