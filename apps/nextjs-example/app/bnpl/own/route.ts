/** One of the app's own routes next to the kit's: a static segment wins over `[...path]`. */
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return new Response('own');
}
