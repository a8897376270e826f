import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../modules/results/results.schemas.ts';
import type { Question } from '../modules/questions/questions.schemas.ts';
import type { Balance } from '../modules/credits/credits.schemas.ts';
import type { ToolContext } from './mcp-deps.ts';

/**
 * What a person (or the model reading for them) sees of a tool result: a few plain lines, with
 * the JSON beside them in `structuredContent` for programs. Simulated answers always say so
 * (the result's verificationLine, ARCHITECTURE §4 "Panel").
 */
export function reply(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

const pct = (share: number) => `${Math.round(share * 100)}%`;
const short = (text: string, max = 80) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const STATUS: Record<Result['status'], string> = { in_progress: 'in progress', complete: 'complete', underfilled: 'closed underfilled', cancelled: 'cancelled' };

/** One line per option: count, share, and the type's own measure (rank, strength). */
function distributionLines(result: Result): string[] {
  return result.distribution.map((item) => {
    const extra = [
      item.averageRank !== undefined ? `average rank ${item.averageRank.toFixed(1)}` : null,
      item.strength !== undefined ? `strength ${item.strength.toFixed(2)}` : null,
    ].filter(Boolean);
    return `- ${item.option}: ${item.count} (${pct(item.share)})${extra.length ? `, ${extra.join(', ')}` : ''}`;
  });
}

export function resultText(result: Result): string {
  const lines = [`Result of ${result.questionId}: ${STATUS[result.status]}, ${result.nAccepted} of ${result.nRequested} answers.`];
  if (result.nAccepted > 0) lines.push(...distributionLines(result));
  if (result.mean !== null) lines.push(`Mean: ${result.mean.toFixed(2)}`);
  if (result.nAccepted > 0 && result.summary.note) lines.push(`Summary: ${result.summary.note}`);
  if (result.insights?.takeaway) lines.push(`Takeaway from the written answers: ${result.insights.takeaway}`);
  const written = result.answers.map((a) => a.translatedText ?? a.text ?? a.translatedReason ?? a.reason).filter((t): t is string => Boolean(t));
  if (written.length) lines.push(`Latest written answers: ${written.slice(0, 3).map((t) => `"${short(t, 120)}"`).join('; ')}`);
  lines.push(result.verificationLine);
  lines.push(`Credits spent: ${result.creditsSpent}${result.refundCredits ? `; refunded: ${result.refundCredits}` : ''}.`);
  return lines.join('\n');
}

export function questionLine(q: Question): string {
  const when = q.status === 'scheduled' && q.scheduledFor ? ` (goes live ${q.scheduledFor})` : '';
  return `${q.id} "${short(q.text)}": ${q.status}${when}, ${q.answered} of ${q.n} answers, ${q.creditsPerAnswer} credits per answer (reserved ${q.creditsReserved}, spent ${q.creditsSpent}).`;
}

/**
 * The balance after a call that spends (Safety rules: "every tool that spends names what is
 * left"), or null when the credential may not read it (`account:read`, as GET /balance needs).
 */
export async function balanceFor(ctx: ToolContext): Promise<Balance | null> {
  return ctx.actor.scopes.includes('account:read') ? ctx.deps.credits.balance(ctx.actor) : null;
}

export function capText(balance: Balance): string {
  return balance.capRemaining === null ? 'no daily cap on this credential' : `${balance.capRemaining} credits left under today's cap`;
}

export function moneyLine(balance: Balance | null): string {
  if (!balance) return 'Balance not shown: this credential lacks the "account:read" scope.';
  const available = balance.credits - balance.reserved;
  return `Left: ${available} credits available (balance ${balance.credits}, of which ${balance.reserved} reserved by open questions); ${capText(balance)}.`;
}

/** The balance as structured content shows it. */
export function moneyJson(balance: Balance | null): Record<string, unknown> | null {
  return balance ? { available: balance.credits - balance.reserved, credits: balance.credits, reserved: balance.reserved, capRemaining: balance.capRemaining } : null;
}

/** "about 4 minutes", "about 3 hours", "about 7 days": a time to answer an agent can say as it is. */
export function aboutTime(minutes: number): string {
  const unit = (n: number, one: string) => `about ${n} ${one}${n === 1 ? '' : 's'}`;
  if (minutes < 90) return unit(minutes, 'minute');
  if (minutes < 48 * 60) return unit(Math.round(minutes / 60), 'hour');
  return unit(Math.round(minutes / (24 * 60)), 'day');
}
