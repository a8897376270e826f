/** The scopes of the spec ("Authentication"). */
export const SCOPES = ['questions:read', 'questions:write', 'templates:read', 'account:read'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * Who is calling. Services take this instead of a request (ARCHITECTURE §3 rule 2) so REST, MCP,
 * jobs and the CLI share them.
 */
export interface Actor {
  accountId: string;
  keyId: string | null;
  scopes: readonly Scope[];
  /** Daily spend cap of the key in credits, null for none. */
  dailyCapCredits: number | null;
}
