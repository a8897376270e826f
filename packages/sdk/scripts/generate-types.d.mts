// Types of generate-types.mjs for the TypeScript test that imports it (test/integration/sdk-openapi-types.test.ts).
export declare const GENERATE_COMMAND: string;
export declare const OUTPUT_FILES: readonly string[];
export declare const OPENAPI_TS_OPTIONS: Readonly<Record<string, unknown>>;
export declare function operationRoutes(doc: unknown): Record<string, { method: string; path: string; idempotencyKey?: 'required' | 'optional' }>;
export declare function generateFiles(doc: unknown): Promise<Record<string, string>>;
export declare function dumpServedDocument(): Record<string, unknown>;
