import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../lib/errors.ts';
import { SCOPES, isScope, type Scope } from '../lib/actor.ts';
import type { ConnectionsService } from '../modules/connections/connections.service.ts';
import { clientDisplay, type ClientDisplay } from './oauth-provider.ts';
import type { LazyProvider } from './oidc-provider-module.ts';
import type { OauthUrls } from './oauth-urls.ts';

/** An authorization waiting for the person (the consent page's subject). */
export interface PendingAuthorization {
  uid: string;
  client: ClientDisplay & { id: string };
  /** The scopes the app asked for (the four of the spec, in their order). */
  scopes: Scope[];
  /** The resources its tokens will be for ({mcp_url}, the REST API). */
  resources: string[];
  /** Where the browser goes after the answer (the app's redirect URI); null for the device grant. */
  redirectUri: string | null;
  /** The app asked for offline_access (refresh tokens beyond the sign-in session). */
  offlineAccess: boolean;
  /** The app asked for openid (an ID token naming the person by an opaque id); generic OpenID clients always do. */
  openid: boolean;
}

/** What the person chose (docs/agents.md "Consent"). */
export interface Approval {
  personId: string;
  accountId: string;
  scopes: Scope[];
  dailyCapCredits: number | null;
  autoApproveCredits: number;
}

type Raw = { req: IncomingMessage; res: ServerResponse };
const list = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/**
 * The portal's side of oidc-provider's interactions (issue 11 point 2): what is asked, and the
 * answer. Sign-in is the portal's own (a portal session), so an approval resolves the provider's
 * login and consent prompts together: a grant with exactly the chosen scopes for the asked
 * resources, and the connection that carries the account and caps.
 */
export function createOauthInteractions(deps: { provider: LazyProvider; connections: ConnectionsService; urls: OauthUrls }) {
  const { provider, connections, urls } = deps;

  async function details({ req, res }: Raw) {
    try {
      return await (await provider()).interactionDetails(req, res);
    } catch {
      // SessionNotFound and its kin: the cookie is gone, the uid unknown or expired.
      throw new AppError('not_found', 'This sign-in request has expired or was already answered. Start again from the app.');
    }
  }

  return {
    async pending(raw: Raw, uid: string): Promise<PendingAuthorization> {
      const interaction = await details(raw);
      if (interaction.uid !== uid) throw new AppError('not_found', 'This sign-in request is not the one this browser started. Start again from the app.');
      const clientId = String(interaction.params.client_id);
      const client = await (await provider()).Client.find(clientId);
      if (!client) throw new AppError('not_found', 'The app that asked is no longer registered.');
      const asked = list(interaction.params.scope).flatMap((s) => s.split(' '));
      const resources = list(interaction.params.resource);
      return {
        uid,
        client: { id: clientId, ...clientDisplay(client) },
        scopes: SCOPES.filter((s) => asked.includes(s)),
        resources: resources.length ? resources : [urls.mcp],
        redirectUri: typeof interaction.params.redirect_uri === 'string' ? interaction.params.redirect_uri : null,
        offlineAccess: asked.includes('offline_access'),
        openid: asked.includes('openid'),
      };
    },

    /**
     * Records the consent to `pending` (read by `pending()` in this same request) and returns where
     * the browser goes next (back into the provider).
     */
    async approve(raw: Raw, pending: PendingAuthorization, approval: Approval): Promise<string> {
      const scopes = approval.scopes.filter((s) => isScope(s) && pending.scopes.includes(s));
      if (scopes.length === 0) throw new AppError('validation_failed', 'Choose at least one thing the app may do.');
      const oidc = await provider();
      const grant = new oidc.Grant({ accountId: approval.personId, clientId: pending.client.id });
      // The chosen scopes for each resource (what tokens carry) and as the provider's own scopes
      // (what its consent check reads, since they are listed there too); what the person
      // unticked is recorded as refused, so the provider does not ask again.
      const refused = pending.scopes.filter((s) => !scopes.includes(s));
      grant.addOIDCScope(scopes.join(' '));
      if (refused.length) grant.rejectOIDCScope(refused.join(' '));
      for (const resource of pending.resources) {
        grant.addResourceScope(resource, scopes.join(' '));
        if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
      }
      if (pending.offlineAccess) grant.addOIDCScope('offline_access');
      // Granted with the rest, or the provider would ask for consent again and again (no box for it).
      if (pending.openid) grant.addOIDCScope('openid');
      const grantId = await grant.save();
      await connections.create({
        personId: approval.personId,
        accountId: approval.accountId,
        clientId: pending.client.id,
        clientName: pending.client.name,
        grantId,
        scopes,
        dailyCapCredits: approval.dailyCapCredits,
        autoApproveCredits: approval.autoApproveCredits,
      });
      return oidc.interactionResult(raw.req, raw.res, { login: { accountId: approval.personId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    },

    /** The person said no: the app gets `access_denied`. */
    async deny(raw: Raw, uid: string): Promise<string> {
      await this.pending(raw, uid);
      return (await provider()).interactionResult(raw.req, raw.res, { error: 'access_denied', error_description: 'The person declined.' }, { mergeWithLastSubmission: false });
    },
  };
}
export type OauthInteractions = ReturnType<typeof createOauthInteractions>;
