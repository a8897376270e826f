/**
 * This package's version, sent as `X-Headcount-Client: sdk-ts/<version>` so the service's logs
 * can tell SDK traffic (and which release) from curl or the portal. A constant, not read from
 * package.json: the SDK runs where there is no file system (browsers) and must not need JSON
 * import support from its bundler. version.test.ts keeps the two equal.
 */
export const SDK_VERSION = '0.1.0';
