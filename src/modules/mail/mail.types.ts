/**
 * What the rest of the service sees of outgoing mail (issue 10, point 1): one `send`, whatever
 * carries it (SMTP in production, the in-memory dev mailbox in development and tests).
 */
export interface MailMessage {
  /** One plain address (`name@example.com`): never a list, so a typed-in address cannot add a recipient. */
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Resolves once the message is accepted (by the SMTP server, or kept in the dev mailbox); rejects with a MailError. */
  send(message: MailMessage): Promise<void>;
  /** The dev mailbox when mail is not sent through SMTP; null when it is. */
  mailbox(): DevMailbox | null;
}

/** A message kept by the dev mailbox. */
export interface KeptMessage {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string | null;
  readonly sentAt: Date;
}

export interface DevMailbox {
  /** Newest first, at most DEV_MAILBOX_SIZE. */
  list(): readonly KeptMessage[];
  get(id: string): KeptMessage | null;
}

/** The log the mailer writes to: pino's shape, so a pino logger (or a test's recorder) fits. */
export interface MailLog {
  info(obj: object, msg: string): void;
}

/**
 * A message that was not sent. `code`, `responseCode` and `permanent` come from the SMTP client
 * when it had them, so a caller can tell "try again later" (4xx, a dropped connection) from "this
 * will never go" (5xx): the mailer itself neither retries nor logs; callers decide.
 */
export class MailError extends Error {
  constructor(
    message: string,
    readonly details: { code?: string; responseCode?: number; permanent?: boolean } = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailError';
  }
}
