import type { AssetBundle } from '../shared/assets.ts';
import { escapeHtml, head } from '../shared/html.ts';

/**
 * The front page (`GET /`): what Headcount is, where the reference, the OpenAPI description and
 * the health check are, and the README's first steps with this server's own address in the
 * commands. English, like the API reference. No script; the answer page's stylesheet.
 */
const LINKS: ReadonlyArray<{ href: string; title: string; body: string }> = [
  { href: '/app', title: 'Sign in', body: 'The portal: buy credits, make API keys, work in a team, write to support.' },
  { href: '/docs', title: 'API reference', body: 'Every endpoint, field and error, with request samples.' },
  { href: '/openapi.json', title: 'OpenAPI description', body: 'OpenAPI 3.1, for code generators and API clients.' },
  { href: '/healthz', title: 'Health', body: 'Liveness; /readyz also checks the database.' },
];

const code = (text: string) => `<pre class="code"><code>${escapeHtml(text)}</code></pre>`;

export function homePage(input: { assets: AssetBundle; baseUrl: string }): string {
  const { assets, baseUrl } = input;
  const draft = '{"draft": {"type": "single_choice", "text": "Which name is best?", "options": [{"label": "Penny"}, {"label": "Pocket"}], "n": 20}}';
  const steps = [
    {
      title: 'Sign in at /app with your email address, buy credits and make an API key under Developers. Or, as the operator, on the server with the admin CLI:',
      body: code(
        [
          'npm run --silent admin -- account:create --name "Ada Labs"',
          'npm run --silent admin -- key:create --account acc_… \\',
          '  --scopes questions:read,questions:write,account:read',
          'npm run --silent admin -- credits:grant --account acc_… \\',
          '  --amount 5000 --reason "Welcome credits"',
        ].join('\n'),
      ),
    },
    {
      title: 'Price a question, free and without a key:',
      body: code(`curl -s ${baseUrl}/v1/billing/estimate \\\n  -H 'content-type: application/json' \\\n  -d '${draft}'`),
    },
    {
      title: 'Ask it (this reserves the price; the key makes a retry safe):',
      body: code(
        `curl -s ${baseUrl}/v2/questions \\\n  -H "Authorization: Bearer hc_live_…" \\\n  -H 'content-type: application/json' \\\n` +
          `  -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \\\n  -d '${draft}'`,
      ),
    },
    {
      title: 'Wait for the answers (repeat until "done" is true):',
      body: code(`curl -s "${baseUrl}/v2/questions/q_…/wait?seconds=25" \\\n  -H "Authorization: Bearer hc_live_…"`),
    },
  ];
  return `${head(assets, 'en', 'Headcount: ask verified people, get the split in minutes')}
<body>
<main class="page home">
<header class="home-brand">
<img class="home-logo" src="/a/assets/${assets.version}/icon.svg" alt="" width="40" height="40">
<h1>Headcount</h1>
</header>
<p class="home-lead">Ask a short question of verified people (“heads”) and get the split of their answers in minutes: the distribution, the reasons, breakdowns and a summary.</p>
<p>Product teams, researchers and AI agents use Headcount through a JSON API. Money is counted in credits (1 credit = 1 penny).</p>
<nav aria-label="Start here">
<ul class="home-links">
${LINKS.map((l) => `<li><a class="home-link" href="${l.href}"><strong>${escapeHtml(l.title)}</strong> <span class="home-path">${escapeHtml(l.href)}</span><span class="home-about">${escapeHtml(l.body)}</span></a></li>`).join('\n')}
</ul>
</nav>
<section class="results-card" aria-labelledby="quickstart">
<h2 id="quickstart">Quickstart</h2>
<ol class="home-steps">
${steps.map((s) => `<li><p>${escapeHtml(s.title)}</p>\n${s.body}</li>`).join('\n')}
</ol>
<p class="verification">Keys go in <code>Authorization: Bearer …</code>; errors always come as <code>{"error":{"code","message",…}}</code>. The README has the rest: configuration, the database and every admin command.</p>
</section>
</main>
</body>
</html>
`;
}
