import type { Clock } from '../../lib/clock.ts';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newId } from '../../lib/ids.ts';
import { AppError } from '../../lib/errors.ts';
import type { Currency } from '../../lib/currencies.ts';
import type { Mailer } from '../mail/mail.types.ts';
import type { QuestionLanguage } from '../draft/question-types.ts';
import type { ChallengeRow, SessionsRepository } from './sessions.repository.ts';
import type { PeopleRepository } from './people.repository.ts';
import type { PeopleService } from './people.service.ts';
import { personView } from './people.service.ts';
import type { ClientInfo, SessionsService } from './sessions.service.ts';
import { signInMail } from './people-mail.ts';
import { codeMatches, hashCode, hashLinkToken, LINK_TOKEN, newCode, newLinkToken, normalizeEmail, PLAIN_EMAIL } from './sign-in-codes.ts';
import type { SignedIn } from './people.schemas.ts';

/**
 * The limits of signing in (docs/portal.md "Signing in"; RELIABILITY R8.1). A code and its link
 * live 10 minutes, work once, and allow 5 wrong codes; a new code ends the address's older ones.
 * At most 5 codes an hour go to one address and 20 leave one IP address (both counted in the
 * database, so they hold across processes and restarts).
 */
export const SIGN_IN_LIMITS = { codeMinutes: 10, attempts: 5, perAddressPerHour: 5, perIpPerHour: 20 } as const;
const HOUR_MS = 3_600_000;

/** Who is signing in, from where, and what to guess for a new person. */
export interface SignInClient extends ClientInfo {
  language: QuestionLanguage;
  currency: Currency;
}

/** Thrown for every wrong, used, expired or unknown code alike, so the answer says nothing about the address. */
const wrongCode = () => new AppError('sign_in_failed', 'The code is wrong or no longer works; check it, or ask for a new one.');
const tooManyTries = () => new AppError('sign_in_failed', 'Too many wrong codes; ask for a new one.', { reason: 'too_many_attempts' });
const badLink = () => new AppError('sign_in_failed', 'This sign-in link has been used or has expired; ask for a new code.');

function tooSoon(what: string, oldest: Date | null, now: Date): AppError {
  const seconds = oldest ? Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000)) : 60;
  return new AppError('rate_limited', `Too many sign-in codes ${what} in the last hour; try again in ${Math.ceil(seconds / 60)} minutes.`, { retryAfterSeconds: seconds }, { 'retry-after': String(seconds) });
}

export function createSignInService(deps: {
  db: Db;
  repo: SessionsRepository;
  people: PeopleRepository;
  peopleService: PeopleService;
  sessions: SessionsService;
  mailer: Mailer;
  clock: Clock;
  publicBaseUrl: string;
}) {
  const { db, repo, people, peopleService, sessions, mailer, clock } = deps;

  /** Ends the challenge, makes the person on their first sign-in, and opens a new session, in one transaction with the challenge's lock. */
  async function signIn(challenge: ChallengeRow, client: SignInClient, tx: Db): Promise<SignedIn> {
    const now = clock.now();
    await repo.useChallenge(challenge.id, now, tx);
    const { person, created } = await peopleService.findOrCreate(challenge.email, { language: client.language, currency: client.currency }, tx);
    await people.update(person.id, { last_sign_in_at: now }, tx);
    const { token, session } = await sessions.open(person.id, client, tx);
    return { token, session: sessions.view(session, session.id), person: personView(person), accounts: await peopleService.accountsOf(person, tx), created };
  }

  return {
    /**
     * Sends a code (and a link) to an address: the same work and the same answer whether or not a
     * person has it (no enumeration); the person is made only when a code is used. Limits: per
     * address and per IP address, counted here; an SMTP failure is 503 (the code stays unused).
     */
    async requestCode(input: { email: string; ip: string | null; language: QuestionLanguage }): Promise<{ expiresInSeconds: number }> {
      const email = normalizeEmail(input.email);
      if (!PLAIN_EMAIL.test(email)) throw new AppError('validation_failed', 'Give one email address, like name@example.com.', { validation: [{ field: 'email', code: 'invalid_format', message: 'Give one email address, like name@example.com.' }] });
      const now = clock.now();
      const since = new Date(now.getTime() - HOUR_MS);
      const id = newId('signIn');
      const code = newCode();
      const link = newLinkToken();
      await inTransaction(db, async (tx) => {
        await repo.lockSignInRequests(email, input.ip, tx);
        const byAddress = await repo.countSince({ email }, since, tx);
        if (byAddress.count >= SIGN_IN_LIMITS.perAddressPerHour) throw tooSoon('for this address', byAddress.oldest, now);
        if (input.ip) {
          const byIp = await repo.countSince({ ip: input.ip }, since, tx);
          if (byIp.count >= SIGN_IN_LIMITS.perIpPerHour) throw tooSoon('from this network address', byIp.oldest, now);
        }
        await repo.closeChallenges(email, now, tx);
        await repo.insertChallenge(
          { id, email, code_hash: hashCode(id, code), link_hash: hashLinkToken(link), attempts: 0, ip: input.ip, created_at: now, expires_at: new Date(now.getTime() + SIGN_IN_LIMITS.codeMinutes * 60_000), used_at: null },
          tx,
        );
      });
      const known = await people.findByEmail(email);
      const url = `${deps.publicBaseUrl}/app/sign-in/link?token=${link}`;
      try {
        await mailer.send(signInMail({ to: email, code, link: url, minutes: SIGN_IN_LIMITS.codeMinutes, language: known?.language ?? input.language }));
      } catch (error) {
        throw new AppError('service_unavailable', 'The email with the code could not be sent just now; try again in a minute.', undefined, { 'retry-after': '60' }, { cause: error });
      }
      return { expiresInSeconds: SIGN_IN_LIMITS.codeMinutes * 60 };
    },

    /** The typed code: right → a new session; wrong → one attempt used (kept even though the request fails). */
    async verifyCode(input: { email: string; code: string }, client: SignInClient): Promise<SignedIn> {
      const email = normalizeEmail(input.email);
      const outcome = await inTransaction(db, async (tx) => {
        const challenge = await repo.lockOpenChallenge(email, clock.now(), tx);
        if (!challenge) return { error: wrongCode() };
        if (challenge.attempts >= SIGN_IN_LIMITS.attempts) return { error: tooManyTries() };
        if (!codeMatches(challenge.id, input.code, challenge.code_hash)) {
          await repo.countAttempt(challenge.id, tx);
          return { error: challenge.attempts + 1 >= SIGN_IN_LIMITS.attempts ? tooManyTries() : wrongCode() };
        }
        return { signedIn: await signIn(challenge, client, tx) };
      });
      if ('error' in outcome) throw outcome.error;
      return outcome.signedIn;
    },

    /** The address a sign-in link is for, so its page can say who is signing in before anything is used; null when it no longer works. */
    async linkAddress(token: string): Promise<string | null> {
      if (!LINK_TOKEN.test(token)) return null;
      const challenge = await repo.findChallengeByLink(hashLinkToken(token));
      return challenge && !challenge.used_at && challenge.expires_at > clock.now() ? challenge.email : null;
    },

    /** The link from the email (confirmed on its page by a POST, so a mail scanner opening it uses nothing). */
    async verifyLink(token: string, client: SignInClient): Promise<SignedIn> {
      if (!LINK_TOKEN.test(token)) throw badLink();
      const outcome = await inTransaction(db, async (tx) => {
        const challenge = await repo.lockChallengeByLink(hashLinkToken(token), tx);
        if (!challenge || challenge.used_at || challenge.expires_at <= clock.now() || challenge.attempts >= SIGN_IN_LIMITS.attempts) return { error: badLink() };
        return { signedIn: await signIn(challenge, client, tx) };
      });
      if ('error' in outcome) throw outcome.error;
      return outcome.signedIn;
    },
  };
}
export type SignInService = ReturnType<typeof createSignInService>;
