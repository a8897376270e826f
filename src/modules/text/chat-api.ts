/**
 * An OpenAI-compatible chat-completions API (ARCHITECTURE §2): the optional remote insights engine
 * (insights/remote-engine.ts) and the optional translator (translate.ts) both speak to one.
 */
export interface ChatApi {
  url: string;
  key: string | null;
  model: string;
}

export type Fetch = typeof fetch;

const TIMEOUT_MS = 30_000;

/** POSTs one chat completion and returns the message content, or throws. */
export async function chatCompletion(api: ChatApi, messages: Array<{ role: string; content: string }>, fetchImpl: Fetch = fetch): Promise<string> {
  const url = /\/chat\/completions\/?$/.test(api.url) ? api.url : `${api.url.replace(/\/+$/, '')}/chat/completions`;
  const response = await fetchImpl(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(api.key ? { authorization: `Bearer ${api.key}` } : {}) },
    body: JSON.stringify({ model: api.model, temperature: 0, response_format: { type: 'json_object' }, messages }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`chat completion answered ${response.status}`);
  const body = (await response.json()) as { choices?: Array<{ message?: { content?: unknown } }> };
  const content = body.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('chat completion without content');
  return content;
}
