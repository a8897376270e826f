import type { FastifyRequest } from 'fastify';

/**
 * True for a request a browser says came from another site: `Sec-Fetch-Site` other than
 * same-origin (or `none`, typed or bookmarked), or an `Origin` that is neither the host the
 * request was sent to nor `publicBaseUrl`'s. A form another site makes a browser post carries
 * one of them. "null" is what a browser sends when it withholds the origin (a privacy setting),
 * and a request with neither header is not a browser's: the caller's other checks decide then.
 */
export function isCrossSite(request: FastifyRequest, publicBaseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  return origin !== undefined && origin !== 'null' && origin !== `${request.protocol}://${request.host}` && origin !== new URL(publicBaseUrl).origin;
}
