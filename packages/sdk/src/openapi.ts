/**
 * GENERATED FILE: do not edit. The types of Headcount API 2.0.0 (openapi-typescript, defaultNonNullable: false).
 * Made from the service's OpenAPI document (/openapi.json) by packages/sdk/scripts/generate-types.mjs.
 * Regenerate after changing the API:  node packages/sdk/scripts/generate-types.mjs
 */

export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the database answers and every migration is applied */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Rates, answering countries, question languages and pay */
        get: operations["getConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Ready-made drafts, each with its price
         * @description Declares the `templates:read` scope, but no credential is required.
         */
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/countries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Answering countries with languages and the size of their pools */
        get: operations["listCountries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tags": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Tag groups and the tags a question can target */
        get: operations["listTags"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Heads online, answers this week, time to 50 answers, head earnings */
        get: operations["getStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/interest-audiences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Audiences that can be asked, with size band and price per answer by grade
         * @description Open audiences, sorted by name. `q` finds words in the name, description, slug and tags; `country` keeps audiences open in that country; `lang` those in that language; `category` one category; `open=1` only audiences open to join from the caller's country. `mine=asking` needs a credential (401 without one) and lists the private audiences your account sponsors too.
         */
        get: operations["listInterestAudiences"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/interest-audiences/{slug}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One audience: what it is, the tags it stamps, grades and pay
         * @description By slug (or id). Open and closed audiences are shown; a private one only with a credential of an account that sponsors it (404 otherwise).
         */
        get: operations["getInterestAudience"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Price and validate a draft without spending anything
         * @description Any draft with the right JSON types gets 200: the price, the time to answer, the pool of heads, and every broken rule in `validation[]` (one item per field), so a form can show all problems at once. Only a body of the wrong shape (wrong JSON types, unknown fields) gets 400. `creditsTotal` is exactly what an ask of the same draft reserves. Counts as half a request against the rate limit. A draft naming an interest audience (`interestAudienceId`, `minGrade`, `interestPrice`) is priced at the audience's pay; a private audience only with a credential of an account that sponsors it (docs/audiences.md).
         */
        post: operations["estimateQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Credits, reserved credits, what expires, and what is left under the key's daily cap */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every movement of credits, newest first
         * @description Pages of 50 rows; pass `nextCursor` back as `cursor` for the next page.
         */
        get: operations["listLedger"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * When the account is warned about its credits: the `credits.low` threshold (extension)
         * @description Extension. `lowCreditsThreshold`: the `credits.low` webhook event is sent when available credits fall from at least this many to fewer (0: never; default 1000). Changed with PATCH, by a portal session.
         */
        get: operations["getBillingAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the `credits.low` threshold (extension; portal session only)
         * @description Extension. Portal session only: API keys get 403 `insufficient_scope`; on a team account, owners and admins only. `lowCreditsThreshold` 0 to 10,000,000 credits; 0 turns `credits.low` off. The next crossing uses the new value.
         */
        patch: operations["updateBillingAlerts"];
        trace?: never;
    };
    "/v1/drafts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Saved drafts, most recently changed first */
        get: operations["listDrafts"];
        put?: never;
        /**
         * Save a draft
         * @description QuestionDraft fields (only `type` required) plus the draft-only additions. Field rules apply; per-type rules are checked when the draft is estimated or asked.
         */
        post: operations["createDraft"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/drafts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One saved draft */
        get: operations["getDraft"];
        /**
         * Replace a saved draft
         * @description The body is the whole draft, as for POST /v1/drafts; it replaces the one stored.
         */
        put: operations["replaceDraft"];
        post?: never;
        /** Delete a saved draft */
        delete: operations["deleteDraft"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Questions of this account, newest first */
        get: operations["listQuestions"];
        put?: never;
        /**
         * Ask a question: reserves its full price and sends it to heads
         * @description Needs an `Idempotency-Key` (1–200 characters, a fresh UUID per ask). The same key with the same body returns the stored 201 for 24 hours (`Idempotent-Replayed: true`) and never charges twice; with another body it is a 409 `idempotency_conflict`. Reserves exactly the estimate's `creditsTotal` (follow-ups included). See docs/asking.md for templateId, fromDraftId, variantOf, then and privateDeclaration.
         */
        post: operations["askQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Labels in use, most used first */
        get: operations["listQuestionLabels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One question */
        get: operations["getQuestion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Organise a question, or close it early with minAnswers
         * @description `minAnswers` completes the question as soon as that many heads have answered (at once if they already have; unanswered credits are refunded). `externalRef` can be set once.
         */
        patch: operations["updateQuestion"];
        trace?: never;
    };
    "/v2/questions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a live question; unanswered credits come back
         * @description Cancels a live question and refunds the credits of answers not given (`refundCredits`; a `question.cancelled` event). Extension: a `scheduled` question (before it goes live) and a follow-up still waiting for its parent (`draft`) can be cancelled too, with a full refund of what they hold, so no question holds credits that only an operator could release (docs/lifecycle.md).
         */
        post: operations["cancelQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/heads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reopen a complete or underfilled question for more heads
         * @description `dryRun` only quotes. Otherwise needs an `Idempotency-Key`, reserves the extra credits and reopens the question; heads who already answered are excluded and new answers merge with the old.
         */
        post: operations["addHeads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/wait": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Hold the request until the question is answered (up to 25 s a call)
         * @description Returns as soon as the question closes or reaches `minAnswers` (completing it early), else after `seconds` (default 25). Call again while `done` is false. The body is compressed (`br` or `gzip`) for a client whose `Accept-Encoding` allows it.
         */
        get: operations["waitForQuestion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects in use, or the archived ones, newest first */
        get: operations["listProjects"];
        put?: never;
        /** Create a project */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/projects/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a project
         * @description Its questions stay in the account, outside any project.
         */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /**
         * Rename, describe, bookmark or archive a project
         * @description Only the fields sent change; send at least one.
         */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/v1/public/link/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the answer page shows
         * @description The question as a person sees it and its state; nothing about the owner, the price or the counts. Never cached, not indexed.
         */
        get: operations["getAnswerLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/link/{code}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Answer a question through its link
         * @description A retry with the same `nonce` returns the first outcome. An answer after the question closed or filled is `accepted: false` with the state to show. A link answer counts as tier 1 with no profile. Limited per IP address and per link (429).
         */
        post: operations["answerThroughLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/link/{code}/started": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count a page load that showed the question
         * @description Counted once per nonce.
         */
        post: operations["startAnswerLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/answers/{ref}/flag": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Flag an answer for review
         * @description An operator reviews the flag. Upheld: the answer is removed from the result (answers, counts and distribution) and the credits it cost are refunded (`refundCredits`, a `refund` ledger row). Dismissed: nothing changes. One open flag per answer: flagging it again while one is open is a 409 `conflict` with `details.flagId`; after a dismissal it can be flagged again.
         */
        post: operations["flagAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/answers/{ref}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pin or unpin an answer; pinned answers come first */
        post: operations["pinAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/dispute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The question's latest dispute and its decision (extension)
         * @description Extension, for requesters without webhooks: the latest dispute of the question (`open`, or `upheld`/`rejected` with the reviewer's `decision` and any `refundCredits`), null when none was raised, and `disputeBy`, until when one can be raised (null while the question is still open).
         */
        get: operations["getDispute"];
        put?: never;
        /**
         * Dispute the result of a closed question (within 7 days of closing)
         * @description Stored for review; the decision comes as the `dispute.resolved` webhook event (with any refund, also in the ledger), and can be read back with `GET /v2/questions/{id}/dispute`. Only a closed question (complete, underfilled, cancelled or refused), up to 7 days after `closedAt`, and one open dispute per question. Extension: the 200 also carries the stored `dispute`.
         */
        post: operations["disputeQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn the public results page on or off
         * @description `public: true` sets `publicResults` and gives the question a random `publicCode`; its aggregates (no individual answers) are then at `GET /v1/public/results/{publicCode}`. `public: false` clears the code: it stops working for good, and turning the page on again makes a new one. Repeating the current state changes nothing.
         */
        post: operations["shareQuestion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/share-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Private share links of a question, newest first (without their tokens) */
        get: operations["listShareLinks"];
        put?: never;
        /**
         * Create a private, unlisted link to the full results
         * @description The link shows the question and the full result with written answers to whoever has it, until it expires (1 to 90 days, default 30) or is revoked. `token` and `url` are in this response only: only a hash of the token is kept.
         */
        post: operations["createShareLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/share-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a share link; it stops working at once */
        delete: operations["revokeShareLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/results/{code}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Results a requester made public
         * @description The question (without anything about who asked or how they organise it) and the aggregates of its result: distribution, summary, breakdowns; no individual answers. Cached for up to 60 s. 404 when the code is unknown or the page was turned off.
         */
        get: operations["getPublicResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/shared/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Results behind a private share link
         * @description The question and the full result with written answers (answer references replaced by stand-ins, no flags). Never cached, not indexed. 404 for an unknown, tampered, expired or revoked token.
         */
        get: operations["getSharedResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/insights": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The latest summary of the written answers, or null
         * @description A summary made by request while the question is live (`interim`), or when it closed (`final`). Never made from who answered.
         */
        get: operations["getQuestionInsights"];
        put?: never;
        /**
         * Make a fresh summary of the written answers now
         * @description While the question is open: a new `interim` summary, at most once every 10 minutes. After it closed: its `final` summary (made now if the closing job has not made it yet; it is not made again). Needs at least three written answers.
         */
        post: operations["refreshQuestionInsights"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/result": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The result of a question (partial while live), optionally filtered
         * @description Distribution with 95% Wilson intervals (`low`/`high`, an extension), summary, breakdowns, facets and the latest answers (pinned first). With a filter, distribution, breakdowns and answers cover matching answers only; a country or age band filter matching fewer than 5 answers shows none and `suppressed` is true. `fields` (an extension) returns only the named top-level properties; without it, the full Result. The body is compressed (`br` or `gzip`) for a client whose `Accept-Encoding` allows it. See docs/results.md for the statistics.
         */
        get: operations["getResult"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Answers of a question, newest first, with the result filters
         * @description Pages of `limit` answers; pass `nextCursor` back as `cursor` for the next page. Filters and suppression as for the result.
         */
        get: operations["listAnswers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/heatmap.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Click-test heatmap as a transparent PNG
         * @description A transparent PNG to lay over the stimulus image: the taps as a smooth density, coloured from transparent through blue, cyan, green and yellow to red at the busiest spot (a spot needs at least 4 taps to be red). 800 px on its longer side, shaped by `aspect` (drawn at the nearest of a few fixed steps, see the parameter). No taps: fully transparent. Accepts the result's filters (but `option`: a click test has no options) with the same rules: a country or age band matching fewer than 5 answers draws nothing. `clicks.heatmapUrl` in the result links here with the result's filter. Not cached (`private, no-store`): it changes with every answer.
         */
        get: operations["getHeatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/results/{code}/heatmap.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Heatmap of a click test whose results were made public (extension)
         * @description A transparent PNG to lay over the stimulus image: the taps as a smooth density, coloured from transparent through blue, cyan, green and yellow to red at the busiest spot (a spot needs at least 4 taps to be red). 800 px on its longer side, shaped by `aspect` (drawn at the nearest of a few fixed steps, see the parameter). No taps: fully transparent. Every tap, as the public results page counts them; no filters. The public page's `clicks.heatmapUrl` links here. Cached for up to 60 s, like the page. 404 when the code is unknown, the page was turned off, or the question is not a click test.
         */
        get: operations["getPublicHeatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/shared/{token}/heatmap.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Heatmap of a click test behind a private share link (extension)
         * @description A transparent PNG to lay over the stimulus image: the taps as a smooth density, coloured from transparent through blue, cyan, green and yellow to red at the busiest spot (a spot needs at least 4 taps to be red). 800 px on its longer side, shaped by `aspect` (drawn at the nearest of a few fixed steps, see the parameter). No taps: fully transparent. Every tap; no filters. The shared result's `clicks.heatmapUrl` links here. Never cached, not indexed; stops working with the link. 404 for an unknown, tampered, expired or revoked token, or a question that is not a click test.
         */
        get: operations["getSharedHeatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/export.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every answer as CSV
         * @description One row per answer the result's filters keep, oldest first, with the columns of docs/exports.md (answered_at, attestation_ref, tier, option, option_index, options, text, reason, translated_text, translated_reason, translated_to, taps, tap_count, seconds, pinned, simulated). RFC 4180 (CRLF, quoted where needed), UTF-8 with a byte order mark. A text cell beginning with `=`, `+`, `-`, `@`, a tab or a carriage return starts with an apostrophe so spreadsheets show it and never run it. Streamed. A suppressed filter (a country or age band matching fewer than 5 answers) gives the header alone. Filters as the result (same 400s).
         */
        get: operations["exportAnswersCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/export.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The chart as a PNG
         * @description The result drawn for a post or a slide: the question, the bars with their 95% intervals (or what the type shows instead), the summary line and the verification line, in the question's language with the fonts the service ships. `size`: `square` 1080 × 1080 (default), `wide` 1200 × 675, `story` 1080 × 1920. The result as it is now, unfiltered; not cached.
         */
        get: operations["exportChartPng"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/export.pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One A4 page: question, chart, what it means, answers
         * @description The question, the chart, what it means (the summary and its confidence), the answers with pinned ones first (as many as fit, then how many more) and the verification line, on one A4 page with the fonts the service ships. The result as it is now, always unfiltered (it takes no query parameters); not cached.
         */
        get: operations["exportPdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A link that opens a PDF or PNG for an hour without signing in
         * @description For a chat message, a slide deck or a tool that cannot send a key: `url` opens the file for 60 minutes without any credential, then answers 410 `link_expired`. The url is signed (HMAC-SHA256 over the question, format, size and expiry), so it cannot be guessed, changed or extended; nothing is stored. It shows the result as it is when opened. `size` is for PNG only.
         */
        post: operations["createExportLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/public/exports/{exportToken}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open an export link (no authentication)
         * @description The PDF or PNG an export link names (POST /v2/questions/{id}/exports), drawn from the result as it is now. Never cached, not indexed. 404 for a token the service did not sign; 410 `link_expired` once its hour is over.
         */
        get: operations["openExportLink"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/link/qr.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The answer link as a QR code (SVG)
         * @description The question's answer link (`linkUrl`) as a QR code: error correction M, a quiet zone of four modules, black on white. Scales to any size.
         */
        get: operations["getAnswerLinkQrSvg"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/questions/{id}/link/qr.png": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The answer link as a QR code (1024-pixel PNG)
         * @description The question's answer link (`linkUrl`) as a 1024 × 1024 PNG QR code: error correction M, a quiet zone of four modules, black on white.
         */
        get: operations["getAnswerLinkQrPng"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Email a one-time sign-in code (and a link) to an address
         * @description The answer is the same whether or not the address has signed in before. The code works once, for 10 minutes, with 5 tries; a new code ends older ones. At most 5 codes an hour go to one address and 20 to one IP address (429 `rate_limited` with `Retry-After`). The first sign-in makes the person and their personal account.
         */
        post: operations["startSignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-in/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Trade the emailed code for a portal session
         * @description A wrong, used or expired code is 400 `sign_in_failed` (the same answer for every address). The session token in the response is shown once: send it as `Authorization: Bearer <token>`. It acts with every scope for the accounts the person belongs to (the personal account unless the `Headcount-Account` header names another).
         */
        post: operations["verifySignIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the session this request came with */
        post: operations["signOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person's sessions that have not ended, newest first */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End one of the person's sessions (another device's, or this one) */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person and the accounts they belong to */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the person's name or language */
        patch: operations["updateMe"];
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The API keys of the account, newest first, with when each was last used (never a secret) */
        get: operations["listKeys"];
        put?: never;
        /**
         * Make an API key with chosen scopes and daily cap; the secret is in this response only
         * @description Owners and admins of the account only (403 `insufficient_scope` for members).
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key: its next request is refused with 401
         * @description Owners and admins of the account only. Revoking a revoked key changes nothing and answers the same.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in person's connected apps, newest first */
        get: operations["listConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Disconnect an app: its tokens stop working at once
         * @description Revokes the connection and every token issued under it; the app must ask its person again. 404 for a connection that is not this person's or is already disconnected.
         */
        delete: operations["disconnectApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook endpoints, oldest first (secrets masked) */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register an endpoint; its signing secret is in this answer only
         * @description The URL is checked as every delivery will check it: https (http only outside production), no user name or password, no #fragment, and in production every address the name resolves to must be public. At most WEBHOOK_MAX_ENDPOINTS (default 10) per account: 409 conflict past it. Owners and admins only.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One endpoint (secret masked) */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete an endpoint with its delivery log */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change the URL, events, description, or turn the endpoint off or on
         * @description Turning an endpoint off fails its pending deliveries; turning it on clears disabledReason (redeliver what it missed). Owners and admins only.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new signing secret, in this answer only; the old one keeps signing for 24 hours
         * @description Until then every delivery carries two signatures in webhook-signature (new, then old), so receivers switch at their own pace.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to this endpoint only
         * @description Delivered like any event (signed, retried); its data is {test: true, endpointId}. 202: the delivery, pending; follow it in the deliveries list.
         */
        post: operations["sendWebhookTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's deliveries, newest first, 50 a page */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/deliveries/{eventId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery: every attempt, and the event exactly as it is sent */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/endpoints/{id}/deliveries/{eventId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now, with the same webhook-id
         * @description Whatever its status; the retry schedule starts again from this attempt. 409 while an attempt is in flight or the endpoint is turned off.
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/teams": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a team account, owned by the signed-in person
         * @description Questions, keys, credits and webhooks of a team belong to the team. Act for it with the `Headcount-Account` header.
         */
        post: operations["createTeam"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account's members and open invitations
         * @description Members see the team; admins also invite, withdraw invitations and remove members; owners also change roles and remove anyone. The last owner cannot leave or step down (409 `conflict`).
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite an email address into a team, with a role
         * @description The address gets an email; the person accepts after signing in with it. Invitations last 14 days; inviting again replaces the open one. Members see the team; admins also invite, withdraw invitations and remove members; owners also change roles and remove anyone. The last owner cannot leave or step down (409 `conflict`).
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Withdraw an open invitation */
        delete: operations["withdrawInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts/{id}/members/{personId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member, or leave the team with your own person id
         * @description Members see the team; admins also invite, withdraw invitations and remove members; owners also change roles and remove anyone. The last owner cannot leave or step down (409 `conflict`).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /**
         * Change a member's role (owners only)
         * @description Members see the team; admins also invite, withdraw invitations and remove members; owners also change roles and remove anyone. The last owner cannot leave or step down (409 `conflict`).
         */
        patch: operations["setMemberRole"];
        trace?: never;
    };
    "/v1/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Open invitations to the signed-in person's address */
        get: operations["listMyInvitations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{id}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the team of an invitation to your address */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invitations/{id}/decline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decline an invitation to your address */
        post: operations["declineInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start buying a credit pack: where to pay, by card or bank transfer
         * @description Portal session only: API keys get 403 `insufficient_scope`. `currency` must be the account's (1 credit = 1 minor unit of it). The response says where to pay (`url`) and, for a bank transfer, the payee details and reference; a bank transfer writes a `pending` purchase row at once. Credits are added when the provider confirms the payment (a `purchase` row, then `credits.purchased`), exactly once. Bank transfers are not taken in CAD.
         */
        post: operations["startCheckout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's latest checkouts (up to 20), newest first */
        get: operations["listCheckouts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/checkouts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One checkout: whether it is paid yet */
        get: operations["getCheckout"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/support/tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Write to support
         * @description Any credential (an API key or a portal session) or none. With a session the reply goes to the person's address; with a key to the account's, or to `email` when the account has none (400 `validation_failed` on `email` when neither is there); without a credential `email` is required. A confirmation with the ticket id is emailed at once. At most 10 tickets an hour per credential, or per IP address without one (429 `rate_limited` with `Retry-After`). `website` must stay empty and `openedAt` is when the form was opened (ms since the epoch): a post that fills `website`, or comes less than 3 seconds after `openedAt`, is answered the same way but dropped.
         */
        post: operations["createSupportTicket"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * An upload URL for one image or audio file
         * @description PUT the file to `uploadUrl` with `headers` within 15 minutes (the URL is the credential; it works once), then use `publicUrl` in a question. Images: JPEG, PNG or WebP up to 10485760 bytes; checked by their bytes, turned upright, scaled down past 2048 px and re-encoded without metadata. Audio: MP3, M4A/AAC, Ogg/Opus, WAV or WebM up to 10485760 bytes and 60 s. A contentType that does not go with `kind`, or bytes over the kind's limit: 400 `validation_failed`.
         */
        post: operations["createUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import an image from a public https URL
         * @description The service fetches the URL itself: https only; every address the name resolves to must be public (no loopback, private, link-local, CGNAT, metadata or reserved addresses, IPv4-mapped forms included), and the connection goes to the address checked; at most 3 redirects, each checked again; 5242880 bytes at most; 10 s in all. The image (JPEG, PNG or WebP, by its bytes) is then checked and stored exactly as an upload.
         */
        post: operations["importUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/uploads/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Send the file of an upload (the upload URL)
         * @description No credential: the URL is one. Send the `headers` POST /v1/uploads returned (Content-Type exactly as declared) and exactly the declared number of bytes. The bytes are checked (docs/uploads.md); nothing is stored unless every check passes, and a refused PUT may be followed by a corrected one while the URL works. 404 for an unknown or expired URL; 409 once the upload is complete.
         */
        put: operations["putUpload"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A finished upload, as heads see it (the publicUrl)
         * @description No credential. Served with its checked type, `nosniff`, a CSP that lets nothing run, and cached for a year (a file never changes). One byte range (`Range: bytes=…`) gives a 206, as audio players ask; If-None-Match with the ETag a 304. 404 for an unknown file or an upload not finished.
         */
        get: operations["getFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ValidationItem: {
            /** @description Path of the field, such as draft.options[2].label. */
            field: string;
            /** @enum {string} */
            code: "required" | "too_long" | "too_short" | "too_many" | "too_few" | "out_of_range" | "invalid_format" | "unknown_value" | "not_allowed" | "in_past";
            message: string;
        };
        Error: {
            error: {
                /** @description Stable machine code, e.g. validation_failed, unauthorized, insufficient_scope, not_found, rate_limited. */
                code: string;
                /** @description One plain sentence. */
                message: string;
                details?: {
                    validation?: components["schemas"]["ValidationItem"][];
                } & {
                    [key: string]: unknown;
                };
                /** @description Extension: the request id, also sent as the x-request-id header and written to the logs. */
                requestId?: string;
            };
        };
        /** @description What is asked. Per-type rules: see docs/question-types.md. */
        QuestionDraft: {
            /**
             * @description The kind of question; per-type rules in docs/question-types.md.
             * @enum {string}
             */
            type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
            text: string;
            context?: string;
            /** @default en */
            language?: string;
            /** @default [] */
            options?: {
                label: string;
                /** Format: uri */
                imageUrl?: string;
            }[];
            /**
             * @description Offer a "neither" answer (choice and A/B types only).
             * @default false
             */
            neither?: boolean;
            stimulus?: {
                /** Format: uri */
                imageUrl?: string;
                /** Format: uri */
                audioUrl?: string;
                text?: string;
                /** @description How long the stimulus is shown, in milliseconds. */
                exposureMs?: number;
            };
            /**
             * @description Number of answers wanted.
             * @default 50
             */
            n?: number;
            /**
             * @default 1
             * @enum {integer}
             */
            tier?: 1 | 2 | 3;
            /** @default false */
            rush?: boolean;
            targeting?: {
                /**
                 * @description Answering-country codes (ISO 3166-1 alpha-2); empty means any.
                 * @default []
                 */
                countries: string[];
                /**
                 * @description Tag ids from GET /v1/tags; at most `max` per group.
                 * @default []
                 */
                tags: string[];
                ageBands?: ("18-24" | "25-34" | "35-44" | "45-54" | "55-64" | "65+")[];
                genders?: ("woman" | "man" | "non_binary")[];
                verifiedAge?: boolean;
            };
            clickTest?: {
                /** @default 1 */
                maxTaps: number;
            };
            /**
             * Format: date-time
             * @description UTC instant ending in Z; must be in the future.
             */
            scheduledFor?: string;
            /** @default false */
            publicResults?: boolean;
            /**
             * @default off
             * @enum {string}
             */
            reason?: "off" | "optional" | "required";
            /** @enum {string} */
            contentFlag?: "none" | "medical" | "violence" | "distressing" | "alcohol_gambling" | "political";
            /**
             * @description Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.
             * @default never
             */
            stopWhen?: "never" | {
                /**
                 * @description `leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). `margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.
                 * @enum {string}
                 */
                rule: "leader" | "margin";
                /**
                 * @description 1 − α: the chance the claim made on stopping is right, however often it was checked.
                 * @default 0.95
                 */
                confidence?: number;
                /** @description `margin` only, and required there: percentage points between the leader's share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1). */
                points?: number;
                /** @description No stop before this many answers. Default max(10, ⌈n/10⌉); at most n. */
                floor?: number;
            };
        };
        /** @description QuestionDraft fields (only `type` required) plus the draft-only additions. */
        SavedDraft: {
            /**
             * @description The kind of question; per-type rules in docs/question-types.md.
             * @enum {string}
             */
            type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
            text?: string;
            context?: string;
            /** @default en */
            language?: string;
            /** @default [] */
            options?: {
                label: string;
                /** Format: uri */
                imageUrl?: string;
            }[];
            /**
             * @description Offer a "neither" answer (choice and A/B types only).
             * @default false
             */
            neither?: boolean;
            stimulus?: {
                /** Format: uri */
                imageUrl?: string;
                /** Format: uri */
                audioUrl?: string;
                text?: string;
                /** @description How long the stimulus is shown, in milliseconds. */
                exposureMs?: number;
            };
            /**
             * @description Number of answers wanted.
             * @default 50
             */
            n?: number;
            /**
             * @default 1
             * @enum {integer}
             */
            tier?: 1 | 2 | 3;
            /** @default false */
            rush?: boolean;
            targeting?: {
                /**
                 * @description Answering-country codes (ISO 3166-1 alpha-2); empty means any.
                 * @default []
                 */
                countries: string[];
                /**
                 * @description Tag ids from GET /v1/tags; at most `max` per group.
                 * @default []
                 */
                tags: string[];
                ageBands?: ("18-24" | "25-34" | "35-44" | "45-54" | "55-64" | "65+")[];
                genders?: ("woman" | "man" | "non_binary")[];
                verifiedAge?: boolean;
            };
            clickTest?: {
                /** @default 1 */
                maxTaps: number;
            };
            /**
             * Format: date-time
             * @description UTC instant ending in Z; must be in the future.
             */
            scheduledFor?: string;
            /** @default false */
            publicResults?: boolean;
            /**
             * @default off
             * @enum {string}
             */
            reason?: "off" | "optional" | "required";
            /** @enum {string} */
            contentFlag?: "none" | "medical" | "violence" | "distressing" | "alcohol_gambling" | "political";
            /**
             * @description Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.
             * @default never
             */
            stopWhen?: "never" | {
                /**
                 * @description `leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). `margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.
                 * @enum {string}
                 */
                rule: "leader" | "margin";
                /**
                 * @description 1 − α: the chance the claim made on stopping is right, however often it was checked.
                 * @default 0.95
                 */
                confidence?: number;
                /** @description `margin` only, and required there: percentage points between the leader's share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1). */
                points?: number;
                /** @description No stop before this many answers. Default max(10, ⌈n/10⌉); at most n. */
                floor?: number;
            };
            /** @description Selects an audience; replaces targeting. */
            interestAudienceId?: string;
            minGrade?: number;
            interestPrice?: {
                /** @description Price per answer the requester accepts for the audience, in credits. */
                creditsPerAnswer: number;
                /** @description Extra credits per answer offered on top, paid to the heads. */
                bonusCredits: number;
            };
            /**
             * @default heads
             * @enum {string}
             */
            answeredBy?: "heads";
            /**
             * @description Only 1 may be chosen; otherwise questions stay open 7 days.
             * @default 7
             */
            openForDays?: number;
            /** @description The name shown on the answer page. */
            shownAs?: string;
        };
        Question: {
            id: string;
            /**
             * @description The kind of question; per-type rules in docs/question-types.md.
             * @enum {string}
             */
            type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
            text: string;
            context?: string;
            language: string;
            options: {
                label: string;
                /** Format: uri */
                imageUrl?: string;
            }[];
            neither: boolean;
            stimulus?: {
                /** Format: uri */
                imageUrl?: string;
                /** Format: uri */
                audioUrl?: string;
                text?: string;
                /** @description How long the stimulus is shown, in milliseconds. */
                exposureMs?: number;
            };
            n: number;
            /** @enum {integer} */
            tier: 1 | 2 | 3;
            rush: boolean;
            targeting?: {
                /**
                 * @description Answering-country codes (ISO 3166-1 alpha-2); empty means any.
                 * @default []
                 */
                countries: string[];
                /**
                 * @description Tag ids from GET /v1/tags; at most `max` per group.
                 * @default []
                 */
                tags: string[];
                ageBands?: ("18-24" | "25-34" | "35-44" | "45-54" | "55-64" | "65+")[];
                genders?: ("woman" | "man" | "non_binary")[];
                verifiedAge?: boolean;
            };
            clickTest?: {
                /** @default 1 */
                maxTaps: number;
            };
            /**
             * Format: date-time
             * @description UTC instant ending in Z; must be in the future.
             */
            scheduledFor?: string;
            publicResults: boolean;
            /** @enum {string} */
            reason: "off" | "optional" | "required";
            /** @enum {string} */
            contentFlag?: "none" | "medical" | "violence" | "distressing" | "alcohol_gambling" | "political";
            /**
             * @description Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.
             * @default never
             */
            stopWhen?: "never" | {
                /**
                 * @description `leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). `margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.
                 * @enum {string}
                 */
                rule: "leader" | "margin";
                /**
                 * @description 1 − α: the chance the claim made on stopping is right, however often it was checked.
                 * @default 0.95
                 */
                confidence?: number;
                /** @description `margin` only, and required there: percentage points between the leader's share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1). */
                points?: number;
                /** @description No stop before this many answers. Default max(10, ⌈n/10⌉); at most n. */
                floor?: number;
            };
            /** @enum {string} */
            status: "draft" | "scheduled" | "live" | "complete" | "underfilled" | "cancelled" | "refused";
            /** @enum {string} */
            source: "app" | "portal" | "api" | "mcp";
            /** @description Answers received. */
            answered: number;
            creditsPerAnswer: number;
            creditsReserved: number;
            creditsSpent: number;
            etaMinutes: number;
            leaderLine: string | null;
            refusedCategory: string | null;
            /** @description Code of the public results page, when it is on. */
            publicCode: string | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            liveAt: string | null;
            /** Format: date-time */
            closedAt: string | null;
            teamId?: string | null;
            askedBy?: {
                id: string;
                name: string | null;
            } | null;
            projectId?: string | null;
            labels?: string[];
            archived?: boolean;
            bookmarked?: boolean;
            externalRef?: string | null;
            /** @description Extension: the code of the answer link. */
            linkCode?: string;
            /**
             * Format: uri
             * @description Extension: the answer link to share; the QR codes encode it.
             */
            linkUrl?: string;
            /** @description Extension: the interest audience the question asks instead of targeting (docs/audiences.md); absent for targeting. */
            interestAudienceId?: string;
            /** @description Extension: the lowest grade of that audience that answers. */
            minGrade?: number;
            /** @description Extension: on a follow-up (an item of the ask's `then`), the id of the question it follows; absent on any other question. `GET /v2/questions?parentId=` lists a question's follow-ups. */
            parentId?: string;
        };
        Insights: {
            questionId: string;
            /** @description The account's language. */
            language: string;
            /** @description The question's language. */
            sourceLanguage: string;
            takeaway: string;
            themes: {
                label: string;
                count: number;
                share: number;
                /** @enum {string} */
                sentiment: "positive" | "neutral" | "negative";
                option: string | null;
                quotes: string[];
            }[];
            sentiment: {
                positive: number;
                neutral: number;
                negative: number;
            };
            basedOn: number;
            answersAtTime: number;
            original: {
                takeaway: string;
                themes: {
                    label: string;
                    quotes: string[];
                }[];
            } | null;
            /** @enum {string} */
            kind: "interim" | "final";
            /** Format: date-time */
            generatedAt: string;
            /** Format: date-time */
            refreshAfter: string | null;
            engine: string;
        };
        /** @description Extension (docs/early-stopping.md): the stopping rule and what it found. */
        Settlement: {
            /** @enum {string} */
            rule: "leader" | "margin";
            /**
             * @description `ppr_1v1` (leader rule, Jain et al. 2022), `beta_binomial_mixture` (shares), `betting_dkelly` (1–5 mean); docs/early-stopping.md.
             * @enum {string}
             */
            method: "ppr_1v1" | "beta_binomial_mixture" | "betting_dkelly";
            /** @description true: the question was asked with this `stopWhen`. false: it was asked without one, and this is the reference rule (leader at 95%, or margin at 95%) it is read under, for information. */
            asked: boolean;
            confidence: number;
            /** @description 1 − confidence: the chance the claim is wrong, however often the rule was checked. */
            alpha: number;
            /** @description margin: percentage points (shares) or stars (1–5 mean); null for leader. */
            points: number | null;
            /** @description No stop before this many answers. */
            floor: number;
            /** @description The question stopped early because its rule was met. */
            stopped: boolean;
            /** @description Answers counted when the rule was first met (for `asked: false`, where it would have stopped); null while it is not met. */
            settledAt: number | null;
            /** Format: date-time */
            settledAtTime: string | null;
            /** @description n when the rule was met (or now, while it is not). */
            nRequested: number;
            /** @description The option the claim is about; null for a mean or with a tie for first. */
            leader: string | null;
            /** @description leader: the evidence ratio against the closest rival (capped at 1e300); shares: the lead proven, in points; mean: the half-width of its interval, in stars. At the settlement, or now while not met. */
            evidence: number | null;
            /** @description What evidence must reach: (K − 1)/α; points; for a mean, at most points. */
            threshold: number;
            /** @description 1–5 mean: its anytime-valid interval at the settlement (or now). */
            interval?: {
                lower: number;
                upper: number;
            };
            /** @description What the early stop refunded. */
            refundedCredits: number;
            /** @description Answers removed after review left the claim unproven: it is withdrawn (the refund stands). */
            withdrawn: boolean;
            /**
             * @description What the distribution's `low`/`high` are: anytime-valid (all options together, at `confidence`) for a question that stopped by its rule; otherwise 95% Wilson.
             * @enum {string}
             */
            intervals: "anytime_valid" | "wilson";
            /** @description What happened, in plain words. */
            note: string;
        };
        Answer: {
            /** @description The chosen option (for ranking, the one ranked first; for multi choice, the chosen labels joined). */
            option: string | null;
            /** @description The written answer. */
            text: string | null;
            translatedText?: string | null;
            reason?: string | null;
            translatedReason?: string | null;
            tier: number;
            /** @description Names the answer in flag and pin calls. */
            attestationRef: string;
            /** Format: date-time */
            answeredAt: string;
            pinned?: boolean;
            flag?: {
                /** @enum {string} */
                reason: "off_topic" | "low_effort" | "abusive" | "automated";
                /** @enum {string} */
                status: "open" | "upheld" | "dismissed";
                refundCredits: number;
                /** Format: date-time */
                createdAt: string;
                /** Format: date-time */
                decidedAt: string | null;
            } | null;
            /** @description Click-test taps, 0 to 1 from the top left. */
            taps?: {
                x: number;
                y: number;
            }[];
        };
        Result: {
            questionId: string;
            /** @enum {string} */
            status: "in_progress" | "complete" | "underfilled" | "cancelled";
            nRequested: number;
            nAccepted: number;
            distribution: {
                option: string;
                /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                count: number;
                /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                share: number;
                /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                low?: number;
                /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                high?: number;
                /** @description Ranking: mean position, 1 = first. */
                averageRank?: number;
                /** @description Pairwise: times the option was shown in a pair. */
                appearances?: number;
                /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                strength?: number;
                /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                rank?: number;
            }[];
            mean: number | null;
            summary: {
                winner: string | null;
                margin: number | null;
                /** @enum {string|null} */
                confidence: "low" | "medium" | "high" | null;
                note: string;
                suggestedFollowUp: string | null;
            };
            tier: number;
            language: string;
            verificationLine: string;
            medianSeconds: number | null;
            creditsSpent: number;
            answers: components["schemas"]["Answer"][];
            breakdown?: {
                tagId: string;
                label: string;
                n: number;
                distribution: {
                    option: string;
                    /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                    count: number;
                    /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                    share: number;
                    /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                    low?: number;
                    /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                    high?: number;
                    /** @description Ranking: mean position, 1 = first. */
                    averageRank?: number;
                    /** @description Pairwise: times the option was shown in a pair. */
                    appearances?: number;
                    /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                    strength?: number;
                    /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                    rank?: number;
                }[];
            }[];
            refundCredits: number;
            breakdowns?: {
                /**
                 * @description `grade` (an extension) only for a question asked of an interest audience (docs/audiences.md).
                 * @enum {string}
                 */
                dimension: "country" | "tier" | "age_band" | "gender" | "tag" | "grade";
                segments: {
                    label: string;
                    n: number;
                    distribution: {
                        option: string;
                        /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                        count: number;
                        /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                        share: number;
                        /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                        low?: number;
                        /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                        high?: number;
                        /** @description Ranking: mean position, 1 = first. */
                        averageRank?: number;
                        /** @description Pairwise: times the option was shown in a pair. */
                        appearances?: number;
                        /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                        strength?: number;
                        /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                        rank?: number;
                    }[];
                }[];
            }[];
            clicks?: {
                imageUrl: string | null;
                taps: number;
                points: {
                    x: number;
                    y: number;
                }[];
                grid: number[];
                gridSize: number;
                hotspots: {
                    x: number;
                    y: number;
                    w: number;
                    h: number;
                    count: number;
                    share: number;
                }[];
                heatmapUrl: string | null;
            };
            sentiment?: {
                positive: number;
                neutral: number;
                negative: number;
            };
            translationLanguage?: string | null;
            insights?: components["schemas"]["Insights"] | null;
            filter?: {
                option?: number;
                tier?: number;
                country?: string;
                ageBand?: string;
                /** @enum {string} */
                gender?: "woman" | "man" | "non_binary";
                q?: string;
            };
            nUnfiltered?: number;
            /** @description Extension (docs/early-stopping.md): the stopping rule (the question's stopWhen, or the reference rule for one asked without), where it settled or would have, and why. null for types no rule judges (free text, click test). */
            settlement?: components["schemas"]["Settlement"] | null;
            suppressed?: boolean;
            facets?: {
                tiers: {
                    tier: number;
                    n: number;
                }[];
                countries: {
                    code: string;
                    label: string;
                    n: number;
                }[];
                ageBands: {
                    band: string;
                    n: number;
                }[];
                genders?: {
                    /** @enum {string} */
                    gender: "woman" | "man" | "non_binary";
                    n: number;
                }[];
            };
        };
        /** @description A Result with only the properties named in `fields` (each as in Result). */
        ResultPart: {
            questionId?: string;
            /** @enum {string} */
            status?: "in_progress" | "complete" | "underfilled" | "cancelled";
            nRequested?: number;
            nAccepted?: number;
            distribution?: {
                option: string;
                /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                count: number;
                /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                share: number;
                /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                low?: number;
                /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                high?: number;
                /** @description Ranking: mean position, 1 = first. */
                averageRank?: number;
                /** @description Pairwise: times the option was shown in a pair. */
                appearances?: number;
                /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                strength?: number;
                /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                rank?: number;
            }[];
            mean?: number | null;
            summary?: {
                winner: string | null;
                margin: number | null;
                /** @enum {string|null} */
                confidence: "low" | "medium" | "high" | null;
                note: string;
                suggestedFollowUp: string | null;
            };
            tier?: number;
            language?: string;
            verificationLine?: string;
            medianSeconds?: number | null;
            creditsSpent?: number;
            answers?: components["schemas"]["Answer"][];
            breakdown?: {
                tagId: string;
                label: string;
                n: number;
                distribution: {
                    option: string;
                    /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                    count: number;
                    /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                    share: number;
                    /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                    low?: number;
                    /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                    high?: number;
                    /** @description Ranking: mean position, 1 = first. */
                    averageRank?: number;
                    /** @description Pairwise: times the option was shown in a pair. */
                    appearances?: number;
                    /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                    strength?: number;
                    /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                    rank?: number;
                }[];
            }[];
            refundCredits?: number;
            breakdowns?: {
                /**
                 * @description `grade` (an extension) only for a question asked of an interest audience (docs/audiences.md).
                 * @enum {string}
                 */
                dimension: "country" | "tier" | "age_band" | "gender" | "tag" | "grade";
                segments: {
                    label: string;
                    n: number;
                    distribution: {
                        option: string;
                        /** @description Answers that chose it; multi choice: that ticked it; ranking: that ranked it first; pairwise: wins. */
                        count: number;
                        /** @description count / answers; multi choice: of answerers; pairwise: wins / appearances. */
                        share: number;
                        /** @description Extension: lower end of the 95% Wilson score interval of `share` (docs/results.md). 0 with no answers. */
                        low?: number;
                        /** @description Extension: upper end of the 95% Wilson score interval of `share` (docs/results.md). 1 with no answers. */
                        high?: number;
                        /** @description Ranking: mean position, 1 = first. */
                        averageRank?: number;
                        /** @description Pairwise: times the option was shown in a pair. */
                        appearances?: number;
                        /** @description Pairwise: Bradley–Terry strength; the strengths sum to 1. */
                        strength?: number;
                        /** @description Ranking: by averageRank; pairwise: by strength. 1 = best; ties share a rank. */
                        rank?: number;
                    }[];
                }[];
            }[];
            clicks?: {
                imageUrl: string | null;
                taps: number;
                points: {
                    x: number;
                    y: number;
                }[];
                grid: number[];
                gridSize: number;
                hotspots: {
                    x: number;
                    y: number;
                    w: number;
                    h: number;
                    count: number;
                    share: number;
                }[];
                heatmapUrl: string | null;
            };
            sentiment?: {
                positive: number;
                neutral: number;
                negative: number;
            };
            translationLanguage?: string | null;
            insights?: components["schemas"]["Insights"] | null;
            filter?: {
                option?: number;
                tier?: number;
                country?: string;
                ageBand?: string;
                /** @enum {string} */
                gender?: "woman" | "man" | "non_binary";
                q?: string;
            };
            nUnfiltered?: number;
            /** @description Extension (docs/early-stopping.md): the stopping rule (the question's stopWhen, or the reference rule for one asked without), where it settled or would have, and why. null for types no rule judges (free text, click test). */
            settlement?: components["schemas"]["Settlement"] | null;
            suppressed?: boolean;
            facets?: {
                tiers: {
                    tier: number;
                    n: number;
                }[];
                countries: {
                    code: string;
                    label: string;
                    n: number;
                }[];
                ageBands: {
                    band: string;
                    n: number;
                }[];
                genders?: {
                    /** @enum {string} */
                    gender: "woman" | "man" | "non_binary";
                    n: number;
                }[];
            };
        };
        Project: {
            id: string;
            name: string;
            description: string | null;
            goal: string | null;
            bookmarked: boolean;
            archived: boolean;
            questionCount: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        DraftRecord: {
            id: string;
            draft: components["schemas"]["SavedDraft"];
            /** Format: date-time */
            updatedAt: string;
        };
        Template: {
            id: string;
            name: string;
            description: string;
            draft: {
                /**
                 * @description The kind of question; per-type rules in docs/question-types.md.
                 * @enum {string}
                 */
                type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
                text: string;
                context?: string;
                language: string;
                options: {
                    label: string;
                    /** Format: uri */
                    imageUrl?: string;
                }[];
                neither: boolean;
                stimulus?: {
                    /** Format: uri */
                    imageUrl?: string;
                    /** Format: uri */
                    audioUrl?: string;
                    text?: string;
                    /** @description How long the stimulus is shown, in milliseconds. */
                    exposureMs?: number;
                };
                n: number;
                /** @enum {integer} */
                tier: 1 | 2 | 3;
                rush: boolean;
                targeting?: {
                    /**
                     * @description Answering-country codes (ISO 3166-1 alpha-2); empty means any.
                     * @default []
                     */
                    countries: string[];
                    /**
                     * @description Tag ids from GET /v1/tags; at most `max` per group.
                     * @default []
                     */
                    tags: string[];
                    ageBands?: ("18-24" | "25-34" | "35-44" | "45-54" | "55-64" | "65+")[];
                    genders?: ("woman" | "man" | "non_binary")[];
                    verifiedAge?: boolean;
                };
                clickTest?: {
                    /** @default 1 */
                    maxTaps: number;
                };
                /**
                 * Format: date-time
                 * @description UTC instant ending in Z; must be in the future.
                 */
                scheduledFor?: string;
                publicResults: boolean;
                /** @enum {string} */
                reason: "off" | "optional" | "required";
                /** @enum {string} */
                contentFlag?: "none" | "medical" | "violence" | "distressing" | "alcohol_gambling" | "political";
                /**
                 * @description Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.
                 * @default never
                 */
                stopWhen?: "never" | {
                    /**
                     * @description `leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). `margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.
                     * @enum {string}
                     */
                    rule: "leader" | "margin";
                    /**
                     * @description 1 − α: the chance the claim made on stopping is right, however often it was checked.
                     * @default 0.95
                     */
                    confidence?: number;
                    /** @description `margin` only, and required there: percentage points between the leader's share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1). */
                    points?: number;
                    /** @description No stop before this many answers. Default max(10, ⌈n/10⌉); at most n. */
                    floor?: number;
                };
            };
            /** @description What asking this draft as it stands costs, from the pricing module. */
            priceCredits: number;
        };
        Balance: {
            /** @description Credits held, including those reserved by live questions. */
            credits: number;
            /** @description Held by live questions. */
            reserved: number;
            expiring: {
                credits: number;
                /** Format: date-time */
                expiresAt: string;
            }[];
            /** @enum {string} */
            currency: "GBP" | "USD" | "EUR" | "CAD";
            /** @description What is left today under the calling key's daily cap; null when the key has none. */
            capRemaining: number | null;
            freeQuestionToday: boolean;
            /** Format: date-time */
            privateDeclaredAt?: string;
            /** @description Extension: the account this balance is of, so a credential can tell which account it acts for (a personal account, or a team). */
            account?: {
                id: string;
                name: string;
                /** @enum {string} */
                kind: "person" | "team";
            };
        };
        /** @description Extension: when the account is warned about its credits (webhook events). */
        BillingAlerts: {
            /** @description The `credits.low` webhook event is sent when an ask, added heads or expiry takes the credits the account can spend (`credits − reserved`) from at least this many to fewer; once per crossing. 0: never. Default 1000. */
            lowCreditsThreshold: number;
        };
        LedgerRow: {
            id: string;
            /** Format: date-time */
            at: string;
            /** @description What happened, in words a person reads. */
            title: string;
            /** @enum {string} */
            kind: "purchase" | "ask" | "refund" | "say" | "bonus" | "referral" | "payout" | "payout_returned" | "fee" | "expiry" | "clawback" | "adjustment" | "tier2_fee" | "not_paid";
            /** @enum {string} */
            state: "pending" | "available" | "in_flight" | "paid" | "reversed" | "not_paid";
            /** @description Credits; negative when they leave the balance. */
            amount: number;
            ref: string | null;
            notPaid?: {
                id: string;
                /** @enum {string} */
                source: "rejected" | "clawback";
                /** @enum {string} */
                reason: "too_fast" | "repeat" | "check_question" | "automated" | "linked_accounts" | "shared_payout_method" | "confirmed_fraud";
                amount: number;
                /** @enum {string} */
                status: "not_paid" | "appealed" | "upheld" | "not_upheld";
                appealBy: string | null;
                decisionBy: string | null;
            } | null;
            by?: string | null;
            /** Format: date-time */
            releaseAt?: string | null;
        };
        CountryEntry: {
            /** @description Multiplies head pay in this country. */
            payMultiplier: number;
            minWithdrawalPence: number;
            payoutRails: string[];
            /** @enum {string} */
            otpChannel: "sms" | "whatsapp";
            taxFields: string[];
            tier2Available: boolean;
            /** @enum {string} */
            currency: "GBP" | "USD" | "EUR" | "CAD";
            transferFields?: {
                key: string;
                label: string;
                example?: string;
                pattern?: string;
            }[];
            /**
             * @description Region used to group countries (extension).
             * @enum {string}
             */
            region?: "europe" | "north_america" | "south_america" | "asia" | "africa" | "oceania";
            /** @description Youngest age a head may be in this country (extension). */
            minAge?: number;
            /**
             * @description The checkout method (POST /v1/billing/checkout `method`) to offer first to people here: how most of them pay online (extension).
             * @enum {string}
             */
            topUpMethod?: "card" | "bank_transfer";
            /** @description International dialling code of phone numbers here, e.g. +44; sign-in codes go to a phone (otpChannel) (extension). */
            dialCode?: string;
            /** @description The country's name in its first language, as CLDR writes it, e.g. Deutschland (extension). */
            localName?: string;
        };
        Config: {
            /** @description Exchange rates from GBP (1 GBP = rate units). */
            rates: {
                [key: string]: number;
            };
            /** Format: date */
            ratesDate: string;
            countries: {
                [key: string]: components["schemas"]["CountryEntry"];
            };
            defaultCountry: components["schemas"]["CountryEntry"];
            questionLanguages: ("en" | "es" | "pt" | "hi" | "fr" | "de" | "id" | "tl")[];
            reverifyDays: number;
            tier1PayPence: number;
            tier2PayMultiplier: number;
            answeringCountries?: string[];
            webTopUpStorefronts?: string[];
            /** @description The packs of credits for sale, smallest first; a bigger pack is cheaper per credit (extension). */
            creditPacks?: {
                /** @description The pack, as POST /v1/billing/checkout takes it in `pack`. */
                id: string;
                /** @description Credits the pack adds (1 credit = 1 penny). */
                credits: number;
                /** @description What the pack costs in each currency, in minor units (pence, cents). A credit is one minor unit of the account's currency. */
                prices: {
                    GBP: number;
                    USD: number;
                    EUR: number;
                    CAD: number;
                };
                /** @description Bought credits expire this many days after the payment is confirmed. */
                validForDays: number;
            }[];
        };
        CountriesCatalogue: {
            countries: {
                code: string;
                name: string;
                languages: string[];
                tier2Available: boolean;
                poolBands: {
                    /** @description Size band of heads: under_50, 50_200, 200_1000, 1000_5000 or 5000_plus; null when not offered. */
                    tier1: string | null;
                    /** @description Size band of heads: under_50, 50_200, 200_1000, 1000_5000 or 5000_plus; null when not offered. */
                    tier2: string | null;
                    /** @description Size band of heads: under_50, 50_200, 200_1000, 1000_5000 or 5000_plus; null when not offered. */
                    tier3: string | null;
                };
            }[];
            /** Format: date-time */
            updatedAt: string;
        };
        TagsCatalogue: {
            groups: {
                /** @enum {string} */
                id: "life_stage" | "household" | "income" | "education" | "occupation" | "interests" | "habits" | "shopping" | "health" | "media" | "pets" | "tech";
                label: string;
                /** @description Why a requester would target this group. */
                why: string;
                /** @description How many tags of this group one question may target. */
                max: number;
            }[];
            tags: {
                id: string;
                /** @enum {string} */
                group: "life_stage" | "household" | "income" | "education" | "occupation" | "interests" | "habits" | "shopping" | "health" | "media" | "pets" | "tech";
                label: string;
            }[];
        };
        Stats: {
            headsOnlineNow: number;
            answersThisWeek: number;
            medianMinutesTo50: number;
            /** @description Pence an hour a head earns answering. */
            headEarningsPerHour: {
                low: number;
                high: number;
            };
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookEndpoint: {
            id: string;
            /** Format: uri */
            url: string;
            events: ("question.reserved" | "question.completed" | "question.underfilled" | "question.cancelled" | "question.refused" | "credits.purchased" | "credits.low" | "credits.expiring" | "dispute.resolved" | "connection.cap_warning")[];
            /** @description Signing secret (whsec_…): in full only in the response that created or rotated it; elsewhere masked (whsec_…last four). */
            secret: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            lastDeliveryAt: string | null;
            /** @description HTTP status of the last attempt; null before the first, or when the last attempt got no response (see the delivery's error). */
            lastStatus: number | null;
            description?: string | null;
            enabled?: boolean;
            disabledReason?: string | null;
            /** Format: date-time */
            lastSuccessAt?: string | null;
            /**
             * Format: date-time
             * @description Extension: after a rotation, until when the previous secret still signs beside the new one; null when only one secret signs.
             */
            previousSecretExpiresAt?: string | null;
        };
        WebhookDelivery: {
            /** @description The event id: the webhook-id header of every attempt, and the payload's id. */
            eventId: string;
            /** @enum {string} */
            type: "question.reserved" | "question.completed" | "question.underfilled" | "question.cancelled" | "question.refused" | "credits.purchased" | "credits.low" | "credits.expiring" | "dispute.resolved" | "connection.cap_warning";
            /** @description A test event sent from the portal or POST …/test. */
            test: boolean;
            /**
             * @description pending: an attempt is due or in flight; succeeded: a 2xx came back; failed: the schedule ran out, or the endpoint was turned off.
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            attempts: number;
            /** Format: date-time */
            nextAttemptAt: string | null;
            /** Format: date-time */
            lastAttemptAt: string | null;
            lastStatus: number | null;
            /** @description Why the last attempt failed without an HTTP status (timeout, refused address, …). */
            lastError: string | null;
            /** @description How long the last attempt took. */
            responseTimeMs: number | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            completedAt: string | null;
        };
        WebhookAttempt: {
            attempt: number;
            /** Format: date-time */
            at: string;
            status: number | null;
            error: string | null;
            responseTimeMs: number;
            /** @description The first 1,024 bytes of what the receiver answered. */
            responseBody: string | null;
        };
        Estimate: {
            creditsPerAnswer: number;
            /** @description What an ask of this draft reserves, exactly. */
            creditsTotal: number;
            /** @description What each head is paid, in pence (at the best-paid targeted country). */
            payPerAnswer: number;
            etaMinutes: number;
            /** @description Targeting traits beyond country that the price includes. */
            traits: number;
            breakdown: {
                label: string;
                /** @description "<integer> credits"; the values add up to creditsTotal. */
                value: string;
            }[];
            breakdownLine: string;
            /** @description Everything that would stop the ask, one item per field; empty when the draft can be asked. */
            validation: components["schemas"]["ValidationItem"][];
            /** @description Heads matching the targeting (for an audience: its members at minGrade or above); null while the targeting or the audience has errors. */
            poolSize: number | null;
            /** @description Extension (docs/early-stopping.md): with a `stopWhen` rule, what it may save and what it costs. Absent without one, or while the draft has errors. */
            earlyStopping?: {
                /** @enum {string} */
                rule: "leader" | "margin";
                confidence: number;
                /** @description margin: percentage points (shares) or stars (1–5 mean); null for leader. */
                points: number | null;
                floor: number;
                scenarios: {
                    /** @description The split of the answers, e.g. "70% for the leader". */
                    label: string;
                    /** @description Where the rule is met if the answers come in at exactly this split; null: not before n (every answer used). */
                    stopsAt: number | null;
                    creditsSaved: number;
                }[];
                /** @description Anytime-valid interval width / one-time interval width, at the typical stop (or n). */
                widthRatio: number;
                note: string;
            };
        };
        /** @description One shape for every type; docs/answer-link.md says which fields each type uses. */
        LinkAnswer: {
            /** @description The chosen choice; `choices.length` means Neither; for pairwise, the one picked of `pair`. */
            option?: number;
            /** @description Multiple choice: every choice ticked. */
            options?: number[];
            /** @description Ranking: every option index, most preferred first. */
            order?: number[];
            /** @description Pairwise: the two options shown. */
            pair?: number[];
            /** @description Click test: where the image was tapped, 0 to 1 from the top left. */
            taps?: {
                x: number;
                y: number;
            }[];
            /** @description Free text: the written answer. */
            text?: string;
            /** @description Why, when the question asks for a reason. */
            reason?: string;
        };
        AnswerLink: {
            /** @enum {string} */
            state: "live" | "scheduled" | "closed" | "full" | "paused";
            shownAs: string | null;
            question: {
                /** @enum {string} */
                type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
                text: string;
                context: string | null;
                language: string;
                /** @description What can be chosen, in index order; "Neither" is added after them when `neither` is true. */
                choices: {
                    label: string;
                    imageUrl: string | null;
                }[];
                neither: boolean;
                stimulus: {
                    imageUrl: string | null;
                    audioUrl: string | null;
                    text: string | null;
                    exposureMs: number | null;
                } | null;
                maxTaps: number | null;
                /** @enum {string} */
                reason: "off" | "optional" | "required";
            };
            /** Format: date-time */
            opensAt: string | null;
            showResult: boolean;
            resultCode: string | null;
        };
        /** @description Extension: a dispute of a closed question and its decision (docs/moderation.md). */
        Dispute: {
            /** @description dsp_… */
            id: string;
            questionId: string;
            /**
             * @description `open` until an operator decides it; then `upheld` or `rejected`.
             * @enum {string}
             */
            status: "open" | "upheld" | "rejected";
            /** @description What the requester wrote. */
            reason: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            decidedAt: string | null;
            /** @description The reviewer's note to the requester; null while open. */
            decision: string | null;
            /** @description Credits refunded by the decision (also a `refund` row in the ledger); 0 while open or when none. */
            refundCredits: number;
        };
        ApiKey: {
            /** @description key_… */
            id: string;
            accountId: string;
            name: string | null;
            /** @enum {string} */
            mode: "live" | "test";
            /** @description The first characters and the last four of the secret, e.g. `hc_live_4cYwQz…a1B2`. */
            prefix: string;
            scopes: ("questions:read" | "questions:write" | "templates:read" | "account:read")[];
            /** @description Credits the key may reserve in one UTC day; null for no cap. */
            dailyCapCredits: number | null;
            /** Format: date-time */
            createdAt: string;
            /** @description The person (per_…) who made it in the portal; null for keys made with the admin CLI. */
            createdBy: string | null;
            /**
             * Format: date-time
             * @description When the key was last used (to the minute).
             */
            lastUsedAt: string | null;
            /** Format: date-time */
            revokedAt: string | null;
        };
        Connection: {
            /** @description con_… */
            id: string;
            /** @description The OAuth client: the id it registered with, or its client ID metadata document URL. */
            clientId: string;
            /** @description The name the app gave itself (unverified unless its client_id is an https document). */
            clientName: string;
            /** @description The account it acts for, chosen at consent. */
            account: {
                id: string;
                name: string;
                /** @enum {string} */
                kind: "person" | "team";
            };
            scopes: ("questions:read" | "questions:write" | "templates:read" | "account:read")[];
            /** @description Credits it may reserve in one UTC day; null for no cap. */
            dailyCapCredits: number | null;
            /** @description Asks priced at or under this go ahead through MCP without a confirmation step. */
            autoApproveCredits: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last called (to the minute).
             */
            lastUsedAt: string | null;
        };
        Person: {
            /** @description per_… */
            id: string;
            /**
             * Format: email
             * @description The address the person signs in with, lower-cased.
             */
            email: string;
            /** @description How the person is shown to their teams and in `askedBy`; null shows the address. */
            name: string | null;
            /**
             * @description One of the eight languages the portal and the answer page speak.
             * @enum {string}
             */
            language: "en" | "es" | "pt" | "hi" | "fr" | "de" | "id" | "tl";
            /** @description The account made at the first sign-in (kind `person`); the API acts for it unless told otherwise. */
            personalAccountId: string;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description An account a person belongs to, and their role on it. */
        Membership: {
            accountId: string;
            name: string;
            /** @enum {string} */
            kind: "person" | "team";
            /** @enum {string} */
            currency: "GBP" | "USD" | "EUR" | "CAD";
            /**
             * @description member: asks and reads; admin: also keys, invitations and members; owner: also roles.
             * @enum {string}
             */
            role: "member" | "admin" | "owner";
            /** @description The person's own account. */
            personal: boolean;
        };
        Session: {
            /** @description ses_…: names the session in a list and to revoke it; never the token. */
            id: string;
            /**
             * Format: date-time
             * @description When the person signed in.
             */
            createdAt: string;
            /** Format: date-time */
            lastSeenAt: string;
            /**
             * Format: date-time
             * @description When the session ends unless it is used again (idle limit), never later than its absolute end.
             */
            expiresAt: string;
            userAgent: string | null;
            ip: string | null;
            /** @description The session this request came with. */
            current: boolean;
        };
        Member: {
            personId: string;
            email: string;
            name: string | null;
            /** @enum {string} */
            role: "member" | "admin" | "owner";
            /** Format: date-time */
            joinedAt: string;
        };
        Invitation: {
            /** @description inv_… */
            id: string;
            accountId: string;
            /** @description The address invited; the invitation is for the person who signs in with it. */
            email: string;
            /** @enum {string} */
            role: "member" | "admin" | "owner";
            /** @description The person (per_…) who sent it. */
            invitedBy: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            expiresAt: string;
        };
        InvitationForMe: {
            id: string;
            accountId: string;
            teamName: string;
            /** @enum {string} */
            role: "member" | "admin" | "owner";
            invitedBy: {
                id: string;
                /** @description Their name, else their address. */
                name: string;
            };
            /** Format: date-time */
            expiresAt: string;
        };
        /** @description Where to send a bank transfer: the fields of the payee's account that apply to the currency (sort code and account number for GBP, IBAN and BIC for EUR, routing and account number for USD). */
        BankTransfer: {
            /** @description The account holder to pay. */
            payee: string;
            /** @description Put this in the transfer's reference so the payment finds its checkout. */
            reference: string;
            /** @description Minor units (pence, cents). */
            amount: number;
            /** @enum {string} */
            currency: "GBP" | "USD" | "EUR" | "CAD";
            sortCode?: string;
            accountNumber?: string;
            iban?: string;
            bic?: string;
            routingNumber?: string;
            bankName?: string;
        };
        Checkout: {
            /** @description chk_… */
            id: string;
            accountId: string;
            /**
             * @description `open`: waiting for payment; `pending`: a bank transfer is awaited (its ledger row is pending); `paid`: the credits are in; `failed`: declined or given up; `expired`: not paid in time.
             * @enum {string}
             */
            status: "open" | "pending" | "paid" | "failed" | "expired";
            /**
             * @description `test` is the built-in test provider (development only: no money moves).
             * @enum {string}
             */
            provider: "stripe" | "test";
            /** @enum {string} */
            method: "card" | "bank_transfer";
            pack: string;
            credits: number;
            /** @description What is paid, in minor units of `currency`. */
            amount: number;
            /** @enum {string} */
            currency: "GBP" | "USD" | "EUR" | "CAD";
            /**
             * Format: uri
             * @description Where to pay: the provider's checkout page, or its page of transfer instructions.
             */
            url: string | null;
            /** @description For `bank_transfer`: the payee details and reference; null for cards. */
            bankTransfer: components["schemas"]["BankTransfer"] | null;
            /**
             * Format: uri
             * @description Where the provider sends the person back to.
             */
            returnUrl: string;
            /**
             * Format: date-time
             * @description Pay before this (an hour for cards, seven days for a bank transfer).
             */
            expiresAt: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            paidAt: string | null;
            /** @description What the provider refunded of `amount` so far, in minor units (a paid checkout keeps `status` `paid`). */
            refundedAmount: number;
            /** @description What open or lost disputes (chargebacks) of the payment hold, in minor units; a won dispute counts no more. */
            disputedAmount: number;
            /** @description Credits taken back for refunds and disputes so far (the `clawback` rows of the ledger). Credits that open questions hold are taken as those questions give them back (docs/payments.md). */
            creditsTakenBack: number;
        };
        /** @description A message to support (spec "Support"; docs/support.md). */
        SupportTicketRequest: {
            /** @description What the message is about, in a line. */
            subject: string;
            /** @description The message. */
            body: string;
            /** @description The version of the app or client the person uses, if any. */
            appVersion?: string;
            /**
             * @description What kind of problem it is.
             * @enum {string}
             */
            category?: "payout" | "payout_failed" | "account" | "account_frozen" | "verification" | "question" | "billing" | "api" | "security" | "privacy" | "other";
            /**
             * Format: email
             * @description Where the reply goes. Required without a credential. With a key or a session it is ignored: the reply goes to the account's (key) or the person's (session) address; a key whose account has no address needs it.
             */
            email?: string;
            /** @description The language of the confirmation and the reply, e.g. `pt-BR`; one of en, es, pt, hi, fr, de, id, tl is used, else the account's language, else English. */
            locale?: string;
            /** @description Leave empty. A hidden form field: a post that fills it is answered like any other and dropped. */
            website?: string;
            /** @description When the form was opened, in milliseconds since the Unix epoch (1970-01-01T00:00:00Z). A post less than 3 seconds after it, or with openedAt more than a minute in the future, is answered like any other and dropped. */
            openedAt?: number;
        };
        Export: {
            /** @enum {string} */
            format: "pdf" | "png";
            /**
             * @description The PNG size; null for a PDF.
             * @enum {string|null}
             */
            size: "square" | "wide" | "story" | null;
            /**
             * Format: uri
             * @description Opens the file without signing in until `expiresAt`; signed, so it cannot be guessed or extended. Then 410 `link_expired`.
             */
            url: string;
            /** @description The name the file is offered under: the question's text, then the format. */
            filename: string;
            /** Format: date-time */
            expiresAt: string;
        };
        AudienceGrade: {
            /** @description 1 is the weakest proof; each grade proves more than the one below. */
            grade: number;
            /** @description Short name of the grade, e.g. "Logged climber". */
            name: string;
            /** @description What a head showed to hold this grade. */
            proves: string;
            /** @description What a head is paid per answer when the audience is asked at this grade, in pence. */
            payPence: number;
            /** @description The price per answer of asking the audience at this grade (its pay plus the Headcount fee). Rush and interestPrice.bonusCredits add to it. */
            creditsPerAnswer: number;
        };
        Audience: {
            /** @description Put it (or the slug) in a saved draft's interestAudienceId to ask the audience. */
            id: string;
            slug: string;
            name: string;
            description: string;
            /** @enum {string} */
            category: "outdoors" | "sport" | "health" | "care" | "tech" | "gaming" | "parenting" | "food" | "finance" | "work" | "travel" | "pets" | "arts" | "home";
            /**
             * @description open: can be asked; closed: listed by slug, refused in an ask. Drafts are never shown.
             * @enum {string}
             */
            status: "draft" | "open" | "closed";
            /**
             * @description How many members it has, as a band (never a count).
             * @enum {string}
             */
            sizeBand: "under_50" | "50_200" | "200_1000" | "1000_5000" | "5000_plus";
            /** @description Tags (GET /v1/tags) that membership stamps on a head. */
            tags: string[];
            /** @description Grade 1 first. */
            grades: components["schemas"]["AudienceGrade"][];
            /** @description Share of the members at each grade, in whole percent (shares, never counts; 0 for a grade the audience does not have). */
            gradeMix: {
                grade1: number;
                grade2: number;
                grade3: number;
                grade4: number;
                grade5: number;
            };
            /** @description Heads can apply to join it. */
            openToJoin: boolean;
            /** @description A private audience your team sponsors: only its sponsors see and ask it. */
            sponsored: boolean;
            /** @description Its members are simulated heads (the development panel); results say so. */
            simulated: boolean;
            /** @description Countries where it is open; empty: every answering country. */
            countries: string[];
            /** @description Languages of its members; empty: any. */
            languages: string[];
        };
        /** @description A QuestionDraft, plus the draft-only fields that ask an interest audience. */
        EstimateDraft: {
            /**
             * @description The kind of question; per-type rules in docs/question-types.md.
             * @enum {string}
             */
            type: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
            text: string;
            context?: string;
            /** @default en */
            language?: string;
            /** @default [] */
            options?: {
                label: string;
                /** Format: uri */
                imageUrl?: string;
            }[];
            /**
             * @description Offer a "neither" answer (choice and A/B types only).
             * @default false
             */
            neither?: boolean;
            stimulus?: {
                /** Format: uri */
                imageUrl?: string;
                /** Format: uri */
                audioUrl?: string;
                text?: string;
                /** @description How long the stimulus is shown, in milliseconds. */
                exposureMs?: number;
            };
            /**
             * @description Number of answers wanted.
             * @default 50
             */
            n?: number;
            /**
             * @default 1
             * @enum {integer}
             */
            tier?: 1 | 2 | 3;
            /** @default false */
            rush?: boolean;
            targeting?: {
                /**
                 * @description Answering-country codes (ISO 3166-1 alpha-2); empty means any.
                 * @default []
                 */
                countries: string[];
                /**
                 * @description Tag ids from GET /v1/tags; at most `max` per group.
                 * @default []
                 */
                tags: string[];
                ageBands?: ("18-24" | "25-34" | "35-44" | "45-54" | "55-64" | "65+")[];
                genders?: ("woman" | "man" | "non_binary")[];
                verifiedAge?: boolean;
            };
            clickTest?: {
                /** @default 1 */
                maxTaps: number;
            };
            /**
             * Format: date-time
             * @description UTC instant ending in Z; must be in the future.
             */
            scheduledFor?: string;
            /** @default false */
            publicResults?: boolean;
            /**
             * @default off
             * @enum {string}
             */
            reason?: "off" | "optional" | "required";
            /** @enum {string} */
            contentFlag?: "none" | "medical" | "violence" | "distressing" | "alcohol_gambling" | "political";
            /**
             * @description Extension (docs/early-stopping.md): stop early once the answer is settled, keeping the error guarantee however often it is checked; the places not answered are refunded. `never` (default): n answers, as the spec says.
             * @default never
             */
            stopWhen?: "never" | {
                /**
                 * @description `leader`: stop when the option in front is, at `confidence`, the true favourite (single choice, A/B image, yes/mostly/no, reaction, pairwise: wins, ranking: first places). `margin`: for shares (single choice, A/B image, yes/mostly/no, reaction, multi choice) stop when the leader is ahead of every other option by at least `points` percentage points; for the 1–5 scale stop when the mean is known to ± `points` stars.
                 * @enum {string}
                 */
                rule: "leader" | "margin";
                /**
                 * @description 1 − α: the chance the claim made on stopping is right, however often it was checked.
                 * @default 0.95
                 */
                confidence?: number;
                /** @description `margin` only, and required there: percentage points between the leader's share and every other (0 to 99), or for the 1–5 scale the half-width of the mean in stars (more than 0, at most 1). */
                points?: number;
                /** @description No stop before this many answers. Default max(10, ⌈n/10⌉); at most n. */
                floor?: number;
            };
            /** @description Selects an audience; replaces targeting. */
            interestAudienceId?: string;
            minGrade?: number;
            interestPrice?: {
                /** @description Price per answer the requester accepts for the audience, in credits. */
                creditsPerAnswer: number;
                /** @description Extra credits per answer offered on top, paid to the heads. */
                bonusCredits: number;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready" | "not_ready";
                        /** @enum {string} */
                        database: "ok" | "unreachable";
                        /** @enum {string} */
                        migrations: "applied" | "pending" | "unknown";
                    };
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready" | "not_ready";
                        /** @enum {string} */
                        database: "ok" | "unreachable";
                        /** @enum {string} */
                        migrations: "applied" | "pending" | "unknown";
                    };
                };
            };
        };
    };
    getConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Config"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        templates: components["schemas"]["Template"][];
                    };
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCountries: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CountriesCatalogue"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTags: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagsCatalogue"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStats: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Stats"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInterestAudiences: {
        parameters: {
            query?: {
                /** @description Words to find in the name, description, slug or tags. */
                q?: string;
                /** @description Only audiences open in this country. */
                country?: string;
                /** @description Only audiences in this language (a tag such as "pt" or "pt-BR"). */
                lang?: string;
                category?: "outdoors" | "sport" | "health" | "care" | "tech" | "gaming" | "parenting" | "food" | "finance" | "work" | "travel" | "pets" | "arts" | "home";
                /** @description 1: only audiences open to join from the caller's country (`country`, else the CF-IPCountry header of a trusted proxy). */
                open?: "1";
                /** @description asking: with a credential, private audiences your team sponsors are listed too. */
                mine?: "asking";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audiences: components["schemas"]["Audience"][];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `mine=asking` without a credential, or with a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInterestAudience: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The audience's slug (or its id). */
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        audience: components["schemas"]["Audience"];
                    };
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    estimateQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    draft: components["schemas"]["EstimateDraft"];
                    /**
                     * @description Where the estimate is shown; it does not change the price.
                     * @enum {string}
                     */
                    surface?: "app" | "web";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Estimate"];
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Balance"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `account:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLedger: {
        parameters: {
            query?: {
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rows: components["schemas"]["LedgerRow"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `account:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBillingAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alerts: components["schemas"]["BillingAlerts"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `account:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateBillingAlerts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The `credits.low` webhook event is sent when an ask, added heads or expiry takes the credits the account can spend (`credits − reserved`) from at least this many to fewer; once per crossing. 0: never. Default 1000. */
                    lowCreditsThreshold: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        alerts: components["schemas"]["BillingAlerts"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDrafts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        drafts: components["schemas"]["DraftRecord"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDraft: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedDraft"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DraftRecord"];
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DraftRecord"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replaceDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SavedDraft"];
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DraftRecord"];
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDraft: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listQuestions: {
        parameters: {
            query?: {
                status?: "draft" | "scheduled" | "live" | "complete" | "underfilled" | "cancelled" | "refused";
                /** @description ISO 8601 instant (e.g. 2026-11-01T00:00:00Z): questions created at or after it. */
                since?: string;
                limit?: number;
                cursor?: string;
                projectId?: string;
                label?: string;
                externalRef?: string;
                /** @description Extension: only the follow-ups of this question (its `then` items; newest first, as every page, so the last item first). */
                parentId?: string;
                archived?: "exclude" | "only" | "include";
                bookmarked?: boolean;
                /** @description Only questions asked with the calling key (with a portal session: asked by the signed-in person). */
                mine?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        questions: components["schemas"]["Question"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    askQuestion: {
        parameters: {
            query?: never;
            header: {
                /** @description A fresh UUID per ask; a retry with the same key returns the same question for 24 hours. */
                "idempotency-key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    draft: components["schemas"]["QuestionDraft"];
                    /** @description A saved draft used as the base; fields given in `draft` override it. */
                    fromDraftId?: string;
                    /** @description Follow-ups asked of the same heads after this question closes. */
                    then?: {
                        /**
                         * @description The kind of question; per-type rules in docs/question-types.md.
                         * @enum {string}
                         */
                        type?: "single_choice" | "multi_choice" | "ab_image" | "pairwise" | "scale_1_5" | "ranking" | "yes_mostly_no" | "free_text" | "click_test" | "reaction";
                        text: string;
                        options?: {
                            label: string;
                            /** Format: uri */
                            imageUrl?: string;
                        }[];
                        /** @default 20 */
                        n?: number;
                        /** @default 2 */
                        tier?: number;
                        /**
                         * @description Ask the follow-up only if the result reaches this confidence; otherwise its credits are refunded.
                         * @enum {string}
                         */
                        minConfidence?: "low" | "medium" | "high";
                        /** @enum {string} */
                        reason?: "off" | "optional" | "required";
                    }[];
                    /** @description Ask the same question again of heads who did not answer that question or its other variants. */
                    variantOf?: string;
                    /** @description A template used as the base; fields given in `draft` override it. */
                    templateId?: string;
                    projectId?: string | null;
                    labels?: string[];
                    externalRef?: string;
                    /** @description Declares a private question: answered only through its link by your own people, never by the panel. */
                    privateDeclaration?: {
                        /** @description How many of your own people you will send the link to (1 to 1,000,000). */
                        recipients: number;
                    };
                };
            };
        };
        responses: {
            /** @description The question, live or scheduled. */
            201: {
                headers: {
                    /** @description Present when this is the stored response of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `insufficient_credits`, or `spend_cap_exceeded` (details.reason `spend_cap_reached`): nothing was spent. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: `fromDraftId`, `variantOf` or `projectId` is not one of this account's. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `idempotency_conflict` or `idempotency_in_progress` (with Retry-After). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `content_refused`: the question was refused for its content; nothing was spent. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listQuestionLabels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        labels: {
                            label: string;
                            count: number;
                        }[];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    minAnswers?: number;
                    projectId?: string | null;
                    labels?: string[];
                    archived?: boolean;
                    bookmarked?: boolean;
                    externalRef?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `external_ref_set`: externalRef is already set. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                        refundCredits: number;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the question is already closed (complete, underfilled, cancelled or refused). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addHeads: {
        parameters: {
            query?: never;
            header?: {
                "idempotency-key"?: string;
            };
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    n: number;
                    /** @default false */
                    dryRun?: boolean;
                };
            };
        };
        responses: {
            /** @description The quote, and for a real request the reopened question and the credits reserved. */
            201: {
                headers: {
                    /** @description Present when this is the stored response of an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question?: components["schemas"]["Question"];
                        quote: {
                            n: number;
                            creditsPerAnswer: number;
                            creditsTotal: number;
                            etaMinutes: number;
                            newTarget: number;
                            line: string;
                        };
                        creditsReserved?: number;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `insufficient_credits` or `spend_cap_exceeded`: nothing was spent. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict` (not complete or underfilled), `idempotency_conflict` or `idempotency_in_progress`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    waitForQuestion: {
        parameters: {
            query?: {
                seconds?: number;
                /** @description Done as soon as this many heads have answered (completing the question early); above `n`, done when it closes. */
                minAnswers?: number;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The result (final when `done` is true), and whether the question is done. */
            200: {
                headers: {
                    /** @description Always `accept-encoding`. */
                    Vary?: "accept-encoding";
                    /** @description Present when the body is compressed, as `Accept-Encoding` allowed. */
                    "Content-Encoding"?: "br" | "gzip";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        result: components["schemas"]["Result"];
                        done: boolean;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProjects: {
        parameters: {
            query?: {
                /** @description false: the projects in use; true: the archived ones. */
                archived?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        projects: components["schemas"]["Project"][];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; must not be blank. */
                    name: string;
                    description?: string | null;
                    goal?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: components["schemas"]["Project"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Trimmed; must not be blank. */
                    name?: string;
                    description?: string | null;
                    goal?: string | null;
                    bookmarked?: boolean;
                    archived?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project: components["schemas"]["Project"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnswerLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The code of an answer link. */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerLink"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerThroughLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The code of an answer link. */
                code: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    answer: components["schemas"]["LinkAnswer"];
                    /** @default 0 */
                    dwellMs?: number;
                    /** @default false */
                    interrupted?: boolean;
                    /**
                     * Format: uuid
                     * @description Fresh per page load; a retry with the same nonce returns the first outcome.
                     */
                    nonce: string;
                    /** @description Cloudflare Turnstile token; required when the human check is on (always in production). */
                    humanCheckToken?: string;
                    locale?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accepted: boolean;
                        /** @enum {string} */
                        state: "live" | "scheduled" | "closed" | "full" | "paused";
                        showResult: boolean;
                        resultCode: string | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `human_check_failed`: the human check did not pass. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startAnswerLink: {
        parameters: {
            query?: never;
            header: {
                "idempotency-key": string;
            };
            path: {
                /** @description The code of an answer link. */
                code: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    nonce: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    flagAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The question id, e.g. q_4cYw… */
                id: string;
                /** @description The answer's attestationRef (att_…), as in the result's answers. */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Why the answer should not count.
                     * @enum {string}
                     */
                    reason: "off_topic" | "low_effort" | "abusive" | "automated";
                    /** @description Anything the reviewer should know. */
                    note?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        flag: {
                            /** @description flg_… */
                            id: string;
                            attestationRef: string;
                            /** @enum {string} */
                            reason: "off_topic" | "low_effort" | "abusive" | "automated";
                            /** @enum {string} */
                            status: "open" | "upheld" | "dismissed";
                            /** @description Open: what upholding would refund (the credits the answer cost). Upheld: what was refunded. Dismissed: 0. */
                            refundCredits: number;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            decidedAt: string | null;
                        };
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the answer already has an open flag (`details.flagId`), or it was already removed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pinAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The question id, e.g. q_4cYw… */
                id: string;
                /** @description The answer's attestationRef (att_…), as in the result's answers. */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description true pins the answer (pinned answers come first), false unpins it. */
                    pinned: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        pinned: boolean;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the answer was removed after review. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dispute: components["schemas"]["Dispute"] | null;
                        /**
                         * Format: date-time
                         * @description closedAt + 7 days; null while the question is open.
                         */
                        disputeBy: string | null;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disputeQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What is wrong with the result, in words (10 to 2000 characters). */
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        dispute?: components["schemas"]["Dispute"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the question is still open, it closed more than 7 days ago (`details.disputeBy`), or a dispute of it is already open. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    shareQuestion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description true turns the public results page on (the question gets a `publicCode`), false turns it off (the code stops working for good). */
                    public: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: a question refused in review cannot be made public. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listShareLinks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        shareLinks: {
                            /** @description shl_… */
                            id: string;
                            label: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** Format: date-time */
                            revokedAt: string | null;
                            /**
                             * Format: uri
                             * @description The link to send; only in the response that created it.
                             */
                            url?: string;
                            /** @description The secret of the link, shown only once, at creation; only its hash is stored. */
                            token?: string;
                        }[];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createShareLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description Days until the link stops working (1 to 90; default 30).
                     * @default 30
                     */
                    expiresInDays?: number;
                    /** @description A note to tell links apart, e.g. who it was sent to. */
                    label?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        shareLink: {
                            /** @description shl_… */
                            id: string;
                            label: string | null;
                            /** Format: date-time */
                            createdAt: string;
                            /** Format: date-time */
                            expiresAt: string;
                            /** Format: date-time */
                            revokedAt: string | null;
                            /**
                             * Format: uri
                             * @description The link to send; only in the response that created it.
                             */
                            url?: string;
                            /** @description The secret of the link, shown only once, at creation; only its hash is stored. */
                            token?: string;
                        };
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the question was refused in review, or it already has 50 working links. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeShareLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The question id. */
                id: string;
                /** @description The share link id (shl_…). */
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPublicResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `publicCode` of a question. */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public question and result. */
            200: {
                headers: {
                    /** @description Always `public, max-age=60`. */
                    "Cache-Control"?: "public, max-age=60";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                        result: components["schemas"]["Result"];
                    };
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSharedResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of a private share link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The shared question and result. */
            200: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: "no-store";
                    /** @description Always `noindex`. */
                    "X-Robots-Tag"?: "noindex";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        question: components["schemas"]["Question"];
                        result: components["schemas"]["Result"];
                    };
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getQuestionInsights: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        insights: components["schemas"]["Insights"] | null;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshQuestionInsights: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        insights: components["schemas"]["Insights"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `too_few_answers`: fewer than three written answers. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `rate_limited`: a summary was made less than 10 minutes ago; `details.retryAfterMs` and the `Retry-After` header say when to try again. */
            429: {
                headers: {
                    /** @description Seconds to wait. */
                    "Retry-After"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getResult: {
        parameters: {
            query?: {
                /** @description Answers that chose this option index ("Neither" is last); ranking: ranked it first; multi choice: ticked it; pairwise: picked it. */
                option?: number;
                tier?: number;
                /** @description ISO 3166-1 alpha-2 code, any case. */
                country?: string;
                /** @description An age band such as `25-34` or `65+` (send `+` as `%2B`; a bare `+` arrives as a space and is read as `+`). */
                age_band?: string;
                gender?: "woman" | "man" | "non_binary";
                /** @description Case-insensitive substring of the written answer or the reason. */
                q?: string;
                /** @description Only these top-level Result properties, comma-separated (e.g. `distribution,nAccepted,summary`); any of: `questionId`, `status`, `nRequested`, `nAccepted`, `distribution`, `mean`, `summary`, `tier`, `language`, `verificationLine`, `medianSeconds`, `creditsSpent`, `answers`, `breakdown`, `refundCredits`, `breakdowns`, `clicks`, `sentiment`, `translationLanguage`, `insights`, `filter`, `nUnfiltered`, `settlement`, `suppressed`, `facets`. Each is exactly as in the full Result; optional ones the Result leaves out stay out. Without `fields`, the full Result. An unknown name is a 400. */
                fields?: string;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The full Result, or with `fields` only the properties named. */
            200: {
                headers: {
                    /** @description Always `accept-encoding`. */
                    Vary?: "accept-encoding";
                    /** @description Present when the body is compressed, as `Accept-Encoding` allowed. */
                    "Content-Encoding"?: "br" | "gzip";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        result: components["schemas"]["Result"] | components["schemas"]["ResultPart"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAnswers: {
        parameters: {
            query?: {
                /** @description Answers that chose this option index ("Neither" is last); ranking: ranked it first; multi choice: ticked it; pairwise: picked it. */
                option?: number;
                tier?: number;
                /** @description ISO 3166-1 alpha-2 code, any case. */
                country?: string;
                /** @description An age band such as `25-34` or `65+` (send `+` as `%2B`; a bare `+` arrives as a space and is read as `+`). */
                age_band?: string;
                gender?: "woman" | "man" | "non_binary";
                /** @description Case-insensitive substring of the written answer or the reason. */
                q?: string;
                limit?: number;
                /** @description The previous page’s nextCursor, unchanged. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        questionId: string;
                        filter: {
                            option?: number;
                            tier?: number;
                            country?: string;
                            ageBand?: string;
                            /** @enum {string} */
                            gender?: "woman" | "man" | "non_binary";
                            q?: string;
                        };
                        /** @description Answers matching the filter (0 when suppressed). */
                        total: number;
                        nUnfiltered: number;
                        suppressed: boolean;
                        answers: components["schemas"]["Answer"][];
                        translationLanguage: string | null;
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHeatmap: {
        parameters: {
            query?: {
                tier?: number;
                /** @description ISO 3166-1 alpha-2 code, any case. */
                country?: string;
                /** @description An age band such as `25-34` or `65+` (send `+` as `%2B`; a bare `+` arrives as a space and is read as `+`). */
                age_band?: string;
                gender?: "woman" | "man" | "non_binary";
                /** @description Case-insensitive substring of the written answer or the reason. */
                q?: string;
                /**
                 * @description Width / height of the stimulus image, so the picture has its shape. 0.25 to 4; default 1 (square). The picture is drawn at the nearest (by ratio) of these steps: 1:4, 1:3, 2:5, 1:2, 9:16, 2:3, 3:4, 4:5, 1:1, 5:4, 4:3, 3:2, 16:9, 2:1, 5:2, 3:1, 4:1, so its shape is within 16% of the aspect asked for; lay it over the image stretched to the image's box and the taps stay in place. It is 800 px on its longer side (a 4:3 step: 800 × 600; 1:2: 400 × 800).
                 * @example 1.5
                 */
                aspect?: number;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The heatmap. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account, or the question is not a click test. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPublicHeatmap: {
        parameters: {
            query?: {
                /**
                 * @description Width / height of the stimulus image, so the picture has its shape. 0.25 to 4; default 1 (square). The picture is drawn at the nearest (by ratio) of these steps: 1:4, 1:3, 2:5, 1:2, 9:16, 2:3, 3:4, 4:5, 1:1, 5:4, 4:3, 3:2, 16:9, 2:1, 5:2, 3:1, 4:1, so its shape is within 16% of the aspect asked for; lay it over the image stretched to the image's box and the taps stay in place. It is 800 px on its longer side (a 4:3 step: 800 × 600; 1:2: 400 × 800).
                 * @example 1.5
                 */
                aspect?: number;
            };
            header?: never;
            path: {
                /** @description The `publicCode` of a question. */
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The heatmap. */
            200: {
                headers: {
                    /** @description Always `public, max-age=60`. */
                    "Cache-Control"?: "public, max-age=60";
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: unknown code, the page was turned off, or the question is not a click test. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSharedHeatmap: {
        parameters: {
            query?: {
                /**
                 * @description Width / height of the stimulus image, so the picture has its shape. 0.25 to 4; default 1 (square). The picture is drawn at the nearest (by ratio) of these steps: 1:4, 1:3, 2:5, 1:2, 9:16, 2:3, 3:4, 4:5, 1:1, 5:4, 4:3, 3:2, 16:9, 2:1, 5:2, 3:1, 4:1, so its shape is within 16% of the aspect asked for; lay it over the image stretched to the image's box and the taps stay in place. It is 800 px on its longer side (a 4:3 step: 800 × 600; 1:2: 400 × 800).
                 * @example 1.5
                 */
                aspect?: number;
            };
            header?: never;
            path: {
                /** @description The token of a private share link. */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The heatmap. */
            200: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: "no-store";
                    /** @description Always `noindex`. */
                    "X-Robots-Tag"?: "noindex";
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: unknown, tampered, expired or revoked token, or the question is not a click test. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportAnswersCsv: {
        parameters: {
            query?: {
                /** @description Answers that chose this option index ("Neither" is last); ranking: ranked it first; multi choice: ticked it; pairwise: picked it. */
                option?: number;
                tier?: number;
                /** @description ISO 3166-1 alpha-2 code, any case. */
                country?: string;
                /** @description An age band such as `25-34` or `65+` (send `+` as `%2B`; a bare `+` arrives as a space and is read as `+`). */
                age_band?: string;
                gender?: "woman" | "man" | "non_binary";
                /** @description Case-insensitive substring of the written answer or the reason. */
                q?: string;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The CSV. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportChartPng: {
        parameters: {
            query?: {
                /** @description `square` 1080 × 1080 (default), `wide` 1200 × 675, `story` 1080 × 1920 pixels. */
                size?: "square" | "wide" | "story";
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chart. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    exportPdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createExportLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description `pdf` (one A4 page) or `png` (the chart).
                     * @enum {string}
                     */
                    format: "pdf" | "png";
                    /**
                     * @description PNG only: `square` 1080 × 1080 (default), `wide` 1200 × 675 or `story` 1080 × 1920. A PDF takes none (null or left out).
                     * @enum {string|null}
                     */
                    size?: "square" | "wide" | "story" | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        export: components["schemas"]["Export"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openExportLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                exportToken: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    /** @description Always `no-store`. */
                    "Cache-Control"?: "no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    /** @description Always `noindex`. */
                    "X-Robots-Tag"?: "noindex";
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                    "image/png": string;
                };
            };
            /** @description `not_found`: the token was not made by this service, or its question is gone. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `link_expired`: the link's hour is over; make a new one. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnswerLinkQrSvg: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The QR code. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnswerLinkQrPng: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The QR code. */
            200: {
                headers: {
                    /** @description Always `private, no-store`. */
                    "Cache-Control"?: "private, no-store";
                    /** @description `inline` (`attachment` for CSV) with the file's name (Export.filename): an ASCII `filename` and the UTF-8 `filename*` (RFC 6266). */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:read` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no such question on this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startSignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @description One of the eight languages the portal and the answer page speak.
                     * @enum {string}
                     */
                    language?: "en" | "es" | "pt" | "hi" | "fr" | "de" | "id" | "tl";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                        /** @description How long the code (and the link in the same email) works. */
                        expiresInSeconds: number;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifySignIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @description The six digits from the email (spaces are ignored). */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The session's bearer token (hc_ses_…), shown only here: send it as `Authorization: Bearer <token>`. */
                        token: string;
                        session: components["schemas"]["Session"];
                        person: components["schemas"]["Person"];
                        accounts: components["schemas"]["Membership"][];
                        /** @description True when this sign-in created the person and their personal account. */
                        created: boolean;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        sessions: components["schemas"]["Session"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        person: components["schemas"]["Person"];
                        accounts: components["schemas"]["Membership"][];
                        /** @description The account this request acted for (the Headcount-Account header, else the personal account). */
                        actingAccountId: string;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    /**
                     * @description One of the eight languages the portal and the answer page speak.
                     * @enum {string}
                     */
                    language?: "en" | "es" | "pt" | "hi" | "fr" | "de" | "id" | "tl";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        person: components["schemas"]["Person"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What the key is for, e.g. "CI" or "research agent". */
                    name: string;
                    scopes: ("questions:read" | "questions:write" | "templates:read" | "account:read")[];
                    /** @description Credits the key may reserve in one UTC day; null for no cap. */
                    dailyCapCredits: number | null;
                    /**
                     * @default live
                     * @enum {string}
                     */
                    mode?: "live" | "test";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: components["schemas"]["ApiKey"];
                        /** @description The key itself (hc_live_… or hc_test_…), shown only in this response: store it now. */
                        secret: string;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        key: components["schemas"]["ApiKey"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        connections: components["schemas"]["Connection"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disconnectApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoints: components["schemas"]["WebhookEndpoint"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Where events are POSTed: https (http and private addresses only outside production), no credentials, no fragment.
                     */
                    url: string;
                    /** @description The event kinds this endpoint receives (at least one). */
                    events: ("question.reserved" | "question.completed" | "question.underfilled" | "question.cancelled" | "question.refused" | "credits.purchased" | "credits.low" | "credits.expiring" | "dispute.resolved" | "connection.cap_warning")[];
                    /** @description A note for people: what this endpoint is for. */
                    description?: string | null;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The account has as many endpoints as it may (`conflict`, `details.limit`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        /** @description The fields to change; those left out stay as they are (an empty body changes nothing). */
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description Where events are POSTed: https (http and private addresses only outside production), no credentials, no fragment.
                     */
                    url?: string;
                    /** @description The event kinds this endpoint receives (at least one). */
                    events?: ("question.reserved" | "question.completed" | "question.underfilled" | "question.cancelled" | "question.refused" | "credits.purchased" | "credits.low" | "credits.expiring" | "dispute.resolved" | "connection.cap_warning")[];
                    /** @description A note for people: what this endpoint is for. */
                    description?: string | null;
                    /** @description false turns the endpoint off (its pending deliveries fail); true turns it back on and clears disabledReason. */
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        endpoint: components["schemas"]["WebhookEndpoint"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendWebhookTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description The event kind the test event claims (default question.completed); its data is only {test: true, endpointId}.
                     * @enum {string}
                     */
                    type?: "question.reserved" | "question.completed" | "question.underfilled" | "question.cancelled" | "question.refused" | "credits.purchased" | "credits.low" | "credits.expiring" | "dispute.resolved" | "connection.cap_warning";
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The endpoint is turned off (`conflict`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deliveries: components["schemas"]["WebhookDelivery"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
                /** @description The event id (the webhook-id header the receiver got). */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                        attempts: components["schemas"]["WebhookAttempt"][];
                        /** @description The payload: {id, type, createdAt, data}. */
                        event: unknown;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
                /** @description The event id (the webhook-id header the receiver got). */
                eventId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery: components["schemas"]["WebhookDelivery"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An attempt is in flight, or the endpoint is turned off (`conflict`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTeam: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /** @enum {string} */
                    currency: "GBP" | "USD" | "EUR" | "CAD";
                    /**
                     * @description One of the eight languages the portal and the answer page speak.
                     * @enum {string}
                     */
                    language?: "en" | "es" | "pt" | "hi" | "fr" | "de" | "id" | "tl";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account: components["schemas"]["Membership"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: components["schemas"]["Member"][];
                        /** @description Invitations not yet accepted, declined, withdrawn or expired. */
                        invitations: components["schemas"]["Invitation"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /** @enum {string} */
                    role: "member" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitation: components["schemas"]["Invitation"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A personal account has one member (`conflict`, `details.reason` `personal_account`), or the address is already a member (`already_member`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    withdrawInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The team account, acc_… */
                id: string;
                /** @description inv_… */
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A personal account has one member (`conflict`, `details.reason` `personal_account`), or the address is already a member (`already_member`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The team account, acc_… */
                id: string;
                /** @description The member, per_… */
                personId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The team would have no owner left (`conflict`, `details.reason` `last_owner`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The team account, acc_… */
                id: string;
                /** @description The member, per_… */
                personId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "member" | "admin" | "owner";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        member: components["schemas"]["Member"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The team would have no owner left (`conflict`, `details.reason` `last_owner`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMyInvitations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        invitations: components["schemas"]["InvitationForMe"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account: components["schemas"]["Membership"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    declineInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        ok: true;
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A pack id from GET /v1/config `creditPacks` (e.g. `standard`). */
                    pack: string;
                    /** @enum {string} */
                    currency: "GBP" | "USD" | "EUR" | "CAD";
                    /** @enum {string} */
                    method: "card" | "bank_transfer";
                    /** @description Where the portal takes the person after paying; default `/app/credits`. */
                    returnPath?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkout: components["schemas"]["Checkout"];
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCheckouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkouts: components["schemas"]["Checkout"][];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCheckout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The object id, e.g. q_4cYw… */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        checkout: components["schemas"]["Checkout"];
                    };
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An API key was sent: this needs a portal session (`insufficient_scope`); or the person's role on the account does not allow it. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such object on this account (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSupportTicket: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SupportTicketRequest"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description tkt_…: the number the confirmation email quotes. */
                        ticketId: string;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description image (JPEG, PNG or WebP) or audio (MP3, M4A/AAC, Ogg/Opus, WAV or WebM).
                     * @enum {string}
                     */
                    kind: "image" | "audio";
                    /**
                     * @description The file's type; the PUT must send exactly this Content-Type, and the bytes must be of this type.
                     * @enum {string}
                     */
                    contentType: "image/jpeg" | "image/png" | "image/webp" | "audio/mpeg" | "audio/mp4" | "audio/aac" | "audio/ogg" | "audio/wav" | "audio/webm";
                    /** @description The file's size in bytes: the PUT must send exactly this many. At most 10485760 for an image, 10485760 for audio. */
                    bytes: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uri
                         * @description PUT the file here with `headers`; the URL is the credential and works for 15 minutes, once.
                         */
                        uploadUrl: string;
                        /**
                         * Format: uri
                         * @description Where the file is served once the PUT succeeded (404 until then); use it in a question.
                         */
                        publicUrl: string;
                        /** @description Headers the PUT must send (Content-Type). */
                        headers: {
                            [key: string]: string;
                        };
                        /**
                         * Format: date-time
                         * @description Extension: when uploadUrl stops working.
                         */
                        expiresAt: string;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importUpload: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uri
                     * @description A public https URL of a JPEG, PNG or WebP image (up to 5 MB, at most 3 redirects).
                     */
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        publicUrl: string;
                        width: number | null;
                        height: number | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No credential, or a malformed, unknown or revoked one (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credential lacks the `questions:write` scope, or a session's person is not a member of the account in `Headcount-Account` (`insufficient_scope`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is too large (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `import_failed`: the URL could not be fetched or refused (`details.reason`: bad_url, https_required, not_public_address, dns_failed, connect_failed, tls_failed, timeout, too_many_redirects, http_status, too_large, empty, not_accepted, unreadable, too_many_pixels…). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putUpload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The upload URL's token (the last segment of uploadUrl). */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "image/jpeg": string;
                "image/png": string;
                "image/webp": string;
                "audio/mpeg": string;
                "audio/mp4": string;
                "audio/aac": string;
                "audio/ogg": string;
                "audio/wav": string;
                "audio/webm": string;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uri */
                        publicUrl: string;
                        /** @enum {string} */
                        kind: "image" | "audio";
                        /** @description The type it is served with. */
                        contentType: string;
                        /** @description The size served: images are re-encoded without metadata, so this differs from what was sent. */
                        bytes: number;
                        /** @description Pixels, after orientation and any scaling down; null for audio. */
                        width: number | null;
                        height: number | null;
                        /** @description Audio length in milliseconds; null for images. */
                        durationMs: number | null;
                    };
                };
            };
            /** @description The request is not valid (`validation_failed`, with `details.validation`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `not_found`: no upload at this URL, or its 15 minutes are over. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `conflict`: the upload is complete already, or another PUT to it is being checked. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `payload_too_large`: more bytes than declared (`details.declared`, `details.received`), or more than any upload may have. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `unsupported_media_type`: the Content-Type is not the one declared (`details.expected`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `upload_refused`: the bytes are not of the declared type, not a type we accept, damaged, too many pixels, or audio too long (`details.reason`). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file's name in its publicUrl: upl_… and its extension. */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file. */
            200: {
                headers: {
                    /** @description Always `public, max-age=31536000, immutable`. */
                    "Cache-Control"?: "public, max-age=31536000, immutable";
                    /** @description Always `default-src 'none'; sandbox`. */
                    "Content-Security-Policy"?: "default-src 'none'; sandbox";
                    /** @description Always `nosniff`. */
                    "X-Content-Type-Options"?: "nosniff";
                    /** @description inline; filename="upl_….ext" */
                    "Content-Disposition"?: string;
                    /** @description Names these bytes; send it back in If-None-Match to get a 304. */
                    ETag?: string;
                    /** @description Always `bytes`. */
                    "Accept-Ranges"?: "bytes";
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "audio/*": string;
                };
            };
            /** @description The byte range asked for. */
            206: {
                headers: {
                    /** @description Always `public, max-age=31536000, immutable`. */
                    "Cache-Control"?: "public, max-age=31536000, immutable";
                    /** @description Always `default-src 'none'; sandbox`. */
                    "Content-Security-Policy"?: "default-src 'none'; sandbox";
                    /** @description Always `nosniff`. */
                    "X-Content-Type-Options"?: "nosniff";
                    /** @description inline; filename="upl_….ext" */
                    "Content-Disposition"?: string;
                    /** @description Names these bytes; send it back in If-None-Match to get a 304. */
                    ETag?: string;
                    /** @description Always `bytes`. */
                    "Accept-Ranges"?: "bytes";
                    /** @description bytes start-end/size */
                    "Content-Range"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                    "audio/*": string;
                };
            };
            /** @description Not modified: the ETag matched If-None-Match. */
            304: {
                headers: {
                    /** @description Names these bytes; send it back in If-None-Match to get a 304. */
                    ETag?: string;
                    /** @description Always `public, max-age=31536000, immutable`. */
                    "Cache-Control"?: "public, max-age=31536000, immutable";
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `not_found`: no such file, or its upload has not finished. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests (`rate_limited`); wait for the `Retry-After` header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unexpected failure (`internal`); the message is generic and the cause is logged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The database cannot be reached just now (`service_unavailable`); retry after the `Retry-After` header. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
