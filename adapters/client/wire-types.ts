/**
 * The wire's paths and bodies as TypeScript types: GENERATED, do not edit.
 * openapi-typescript wrote it from the OpenAPI document Porter serves at GET {wire}/openapi.json
 * (production, apps, automations and the MCP door mounted; paths relative to the wire).
 * Regenerate with `npm run wire-types` after changing a route declaration.
 */
/* eslint-disable */

export interface paths {
    "/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What this deployment runs */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's audit events */
        get: operations["listActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/doctor/base-url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Say whether PORTER_BASE_URL is set
         * @description Answered in every composition, production included.
         */
        get: operations["checkBaseUrl"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's pending approvals */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Decide several approvals, all or nothing */
        post: operations["decideApprovals"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an approval
         * @description While an approved call executes (the resume window) this answers `{"state": "pending"}` without `request`: keep polling until `executed`.
         */
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/{id}/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or deny a call
         * @description An approved call runs exactly once, on the next turn (or at once for app actions and the door). `remember` also grants matching calls from now on.
         */
        post: operations["decideApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's grants */
        get: operations["listGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/grants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a grant */
        delete: operations["revokeGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the caller used of each budget, and what is left
         * @description Per budget the deployment meters (turns, tokens, toolCalls, appGenerations, runs): used, max, windowSeconds, remaining, and when a unit frees. Only the caller’s own, and for an anonymous session what the anonymous sessions of its address used together (`addressBudgets`).
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the host's tools
         * @description What each does, its risk, whether it reaches outside and the account it acts through; for choosing an automation's tools.
         */
        get: operations["listTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search the caller's threads
         * @description With `q`, only threads whose title or messages (the text the person and the assistant wrote) hold every word of it, each as the start of a word (case and accents ignored; quotes, `*`, `-`, `OR` are not operators), best match first, each with `match`: a snippet and the words to highlight in it.
         */
        get: operations["listThreads"];
        put?: never;
        /** Start a thread */
        post: operations["createThread"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a thread with its messages */
        get: operations["getThread"];
        put?: never;
        post?: never;
        /** Delete a thread */
        delete: operations["deleteThread"];
        options?: never;
        head?: never;
        /** Rename a thread */
        patch: operations["renameThread"];
        trace?: never;
    };
    "/threads/{id}/messages/{messageId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Show another version of a message
         * @description A message that regenerate or edit and resend replaced keeps every version (`versions` in the thread). Showing version `index` puts the messages from this one on away as the version shown until now and brings back the chosen version with the messages that followed it; it lasts (a reload shows it). A message with no other version is 404 `not-found`, an `index` beyond its versions 400 `validation`, and while a turn is in flight on the thread 409 `conflict`.
         */
        post: operations["showVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads/{id}/turn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a turn
         * @description Send `{message}` (a user UIMessage, or just its text), `{continue: true}` (run the calls approved since the last turn, then let the model go on) or the AI SDK chat transport's own body `{id, messages, trigger, messageId}` (only the last message is read: the server owns the history; an assistant message with answered approval parts carries approval responses). `trigger: "regenerate-message"` replaces the last answer with a new one; `submit-message` with a `messageId` replaces that message of the person and everything after it (edit and resend: the thread rewinds to it). A call that needs approval emits `tool-approval-request` and `data-porter-approval`, and the turn finishes. While a turn runs on the thread, a new one is refused with 409 (`concurrentTurns: 'reject'`), waits its turn with the stream open (`'enqueue'`), or stops the running turn and goes next (`'interrupt'`). A user message is stored once per `id` the client gave it: sent again (a retry), it joins the turn carrying it on any instance, or replays the answer that turn stored, and is never stored twice; another message under an id already used is 409. The turn runs to its end whether or not anyone still reads it (unless the host set `turnGraceSeconds`).
         */
        post: operations["runTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rejoin the turn in flight
         * @description Streams the turn in flight on this thread, replayed from its first chunk, whichever instance runs it. A turn whose instance dies ends with an `error` part.
         */
        get: operations["rejoinTurn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop the turn in flight
         * @description Stops the turn in flight wherever it runs, cooperatively: the model's current step is cut, calls under way finish, the partial answer is saved and approvals it parked stay to be decided. Answers once the turn ended; `stopped` is false when none was in flight.
         */
        post: operations["stopTurn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/threads/{id}/files": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a file to a thread
         * @description Streams the body (the file's bytes) into the file store. Its type is judged from the bytes: a type the host does not accept (`uploads.accept`), bytes that are not what they claim, or an empty body are 415; a body over `uploads.maxBytes` is 413, refused while reading, with nothing stored. Send the bytes as the file's own type or as `application/octet-stream` (with `type`); the form types (`text/plain`, `multipart/form-data`, `application/x-www-form-urlencoded`) are refused (415), so another site cannot send one. Counts against the caller's `uploadBytes` budget (429). Attach the file to a message with a `file` part carrying the answer's `url`.
         */
        post: operations["uploadFile"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/files/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an uploaded file
         * @description The owner's file, streamed, as its judged type; anyone else's is 404. Answered in a sandbox (`Content-Security-Policy: sandbox`) and with `nosniff`, so a file never runs as this origin's page.
         */
        get: operations["readFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's connected accounts */
        get: operations["listConnections"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connections/toolkits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the toolkits the connection broker can connect
         * @description What to offer a person to pick from, by name; the slug is what `POST /connections/initiate` takes.
         */
        get: operations["listToolkits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connections/initiate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting a third-party account
         * @description Open `redirectUrl` (the broker's page, which owns the OAuth redirect), then poll `GET /connections/{id}` until the status settles.
         */
        post: operations["initiateConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Poll a connection */
        get: operations["getConnection"];
        put?: never;
        post?: never;
        /** Disconnect an account */
        delete: operations["deleteConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's memories */
        get: operations["listMemories"];
        put?: never;
        /**
         * Keep a memory
         * @description The person adds a memory themselves. Text they already keep answers that memory; past `memory.maxPerPerson` it is 409 `conflict`.
         */
        post: operations["addMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export the caller's memories
         * @description Every memory the caller keeps, as one JSON document (an attachment).
         */
        get: operations["exportMemories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/memories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a memory */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        /** Forget a memory */
        delete: operations["forgetMemory"];
        options?: never;
        head?: never;
        /**
         * Edit a memory
         * @description Written only over the `revision` named: when the memory changed since, the answer is 409 `conflict` with the current memory in `details.current`, and nothing is overwritten.
         */
        patch: operations["editMemory"];
        trace?: never;
    };
    "/knowledge/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the documents the agent answers from
         * @description For the host's admins (`knowledge.admin`); anyone else is 403 `forbidden`.
         */
        get: operations["listDocuments"];
        put?: never;
        /**
         * Add a document for the agent to answer from
         * @description For the host's admins (`knowledge.admin`; anyone else is 403 `forbidden`). The document's text is pulled out (HTML stripped to its text, a PDF's pages read), cut into overlapping passages and indexed. Past `knowledge.maxDocumentBytes` it is 413 `payload-too-large`; a PDF that is not one, or a document without words, 400 `validation`; nothing is stored then.
         */
        post: operations["addDocument"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/documents/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a document */
        get: operations["getDocument"];
        put?: never;
        post?: never;
        /**
         * Remove a document
         * @description Its passages are never answered from again, at once.
         */
        delete: operations["removeDocument"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/knowledge/passages/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a cited passage
         * @description The passage a `source-document` part's `sourceId` names, when its document is within the caller's scopes (everyone's, their own, their org's); otherwise 404 `not-found`.
         */
        get: operations["readPassage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deletions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's deletions that can still be undone */
        get: operations["listDeletions"];
        put?: never;
        /**
         * Delete an app, automation, memory, thread, grant or connection, with a way back
         * @description The thing goes out of use at once: it leaves its list, an automation stops firing and cannot be started, armed or changed by hand (404), a grant is revoked, a connection is no longer used; it is deleted for good after the undo window (`undoSeconds`, default 10 s), by whichever instance sweeps first (the tick, or a timer on the instance that was asked). Asking again answers the deletion already pending. A thing that is not the caller's, or an id of another kind, is 404; a grant already revoked is 409; a connection without a broker configured is 501.
         */
        post: operations["deleteLater"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deletions/{id}/undo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Undo a deletion within its window
         * @description The thing is back as it was (a revoked grant grants again). After `undoUntil`, or once the deletion began, 409 `conflict`.
         */
        post: operations["undoDeletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's apps */
        get: operations["listApps"];
        put?: never;
        /**
         * Generate an app from a prompt
         * @description Pays one of the caller's `appGenerations` and holds one of their turns in flight before the model is asked, and pays the tokens it spends: 429 when any is spent.
         */
        post: operations["createApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/seed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fork a remixable slot of the host's
         * @description The fork itself calls no model; `instruction` then edits it, paid like an edit (one of the caller's `appGenerations` and a place among their turns in flight, reserved before the model is asked, and its tokens): 429 when any is spent.
         */
        post: operations["seedApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/placements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which of the caller's forks fill some slots */
        get: operations["listPlacements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import an app file
         * @description Exempt from the CSRF floor: the type it demands forces a CORS preflight. At most 8 MiB and 128 entries. An anonymous session may import an app without server code only (403 otherwise).
         */
        post: operations["importApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an app with its document */
        get: operations["getApp"];
        put?: never;
        post?: never;
        /** Delete an app, its data and its sandbox */
        delete: operations["deleteApp"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a client renders for an app */
        get: operations["openApp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/edit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Edit an app with an instruction
         * @description Pays one of the caller's `appGenerations` and holds one of their turns in flight before the model is asked, and pays the tokens it spends: 429 when any is spent.
         */
        post: operations["editApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List an app's versions */
        get: operations["listVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export an app file */
        get: operations["exportApp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/rebase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rebase a drifted fork on the host component
         * @description All or nothing: re-forks from the new baseline and replays the edit trail. Approvals granted against the pre-rebase content are invalidated. A replay pays one of the caller's `appGenerations` and holds a place among their turns in flight before the model is first asked, and pays the tokens of every step: 429 when any is spent.
         */
        post: operations["rebasePin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/graduate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Graduate an app to a served app
         * @description Writes the scaffold, starts the server in the sandbox and takes a snapshot; only then does `ui` become `http`. A failed step leaves the app as it was. An anonymous session may not graduate (403).
         */
        post: operations["graduateApp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/fn/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Call a served app's function
         * @description Proxied to `POST /fn/<name>` on the app's own server. The answer is the app's, sent with `content-security-policy: default-src 'none'; sandbox`.
         */
        post: operations["callFunction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/view": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A served app's home page
         * @description The app's query string is passed on. Frame the page (it runs sandboxed, in an opaque origin).
         */
        get: operations["viewServedApp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/view/{rest}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A served app's page or asset
         * @description The app's query string is passed on. Frame the page (it runs sandboxed, in an opaque origin).
         */
        get: operations["viewServedAppPath"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/records/{collection}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a collection's records */
        get: operations["listRecords"];
        /** Add a record (the server mints its id) */
        put: operations["addRecord"];
        post?: never;
        /** Delete a whole collection */
        delete: operations["deleteRecords"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/records/{collection}/{recordId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a record */
        get: operations["getRecord"];
        /** Write a record */
        put: operations["putRecord"];
        post?: never;
        /** Delete a record */
        delete: operations["deleteRecord"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/blobs/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a blob */
        get: operations["getBlob"];
        /**
         * Write a blob
         * @description JSON with base64 data: the CSRF floor keeps cookie-authenticated writes JSON. At most 2 MiB once decoded.
         */
        put: operations["putBlob"];
        post?: never;
        /** Delete a blob */
        delete: operations["deleteBlob"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/apps/{id}/actions/{action}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an app's tool action through the guard
         * @description The page's fields go in `input` (at most 100, 64 KiB of JSON); the action's own fixed values win over them. A parked call runs once, when the same call is retried after approval.
         */
        post: operations["runAppAction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Open a session's server-to-client stream
         * @description MCP Streamable HTTP on the official SDK. Every request is admitted afresh from its bearer token, and runs as the person the host's `oauth.principal(subject)` resolves now (null closes their sessions). Tool calls go through the guard: a call that needs approval answers an error result naming the approval; call again with the same arguments once the person approved it.
         */
        get: operations["openMcpStream"];
        put?: never;
        /**
         * Send MCP messages
         * @description MCP Streamable HTTP on the official SDK. Every request is admitted afresh from its bearer token, and runs as the person the host's `oauth.principal(subject)` resolves now (null closes their sessions). Tool calls go through the guard: a call that needs approval answers an error result naming the approval; call again with the same arguments once the person approved it. An `initialize` request without `Mcp-Session-Id` opens a session.
         */
        post: operations["postMcpMessages"];
        /** End a session */
        delete: operations["closeMcpSession"];
        /** CORS preflight */
        options: operations["preflightMcp"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Begin an authorization (OAuth 2.1, PKCE S256 only)
         * @description A person signed in with the host sees the consent page; anyone else is sent to sign in first. A request the client's redirect URI can hear about is answered by redirecting there with `error` (PKCE missing or not `S256` included).
         */
        get: operations["authorize"];
        put?: never;
        /**
         * Answer the consent page
         * @description Same-site only (Origin and Fetch Metadata are checked); the handle is single-use and bound to the person who saw the page.
         */
        post: operations["answerConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a code, or refresh
         * @description Refresh tokens rotate: a rotated one presented again revokes its whole family, except within the refresh grace window (`oauth.refreshGraceSeconds`): requests of its own client that raced the rotation, and up to 8 replays after it (one per call a client may have in flight), get working tokens of the same family; the replay after those revokes the family. Any requested scope is narrowed to `mcp`. Never cached.
         */
        post: operations["issueTokens"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightToken"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a token (RFC 7009) */
        post: operations["revokeToken"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightRevoke"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a client (RFC 7591) */
        post: operations["registerClient"];
        delete?: never;
        /** CORS preflight */
        options: operations["preflightRegister"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How to add this door to an agent */
        get: operations["showConnectPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** RFC 9728 metadata of the transport */
        get: operations["getDoorProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightDoorProtectedResourceMetadata"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** RFC 8414 metadata of the door's authorization server */
        get: operations["getDoorAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        /** CORS preflight */
        options: operations["preflightDoorAuthorizationServerMetadata"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's automations */
        get: operations["listAutomations"];
        put?: never;
        /**
         * Create an automation (disarmed)
         * @description With `notify`, the answer carries `notifySecret`, the `whsec_` secret its completion webhooks are signed with: shown this once.
         */
        post: operations["createAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an automation */
        get: operations["getAutomation"];
        put?: never;
        post?: never;
        /** Delete an automation */
        delete: operations["deleteAutomation"];
        options?: never;
        head?: never;
        /**
         * Change an automation's name, trigger, task, retries, concurrency or completion webhook
         * @description Trigger and task change only while disarmed. Setting `notify` mints a new secret, returned as `notifySecret` in this answer only; `notify: null` sends no more completion webhooks.
         */
        patch: operations["changeAutomation"];
        trace?: never;
    };
    "/automations/{id}/arm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Arm an automation
         * @description Asks a standing grant for each tool the task names (the asks wait in `/approvals`); denying one disarms the automation in the same decision.
         */
        post: operations["armAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/{id}/disarm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Disarm an automation */
        post: operations["disarmAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the caller's runs */
        get: operations["listRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a run with its transcript */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a run
         * @description Cooperative and idempotent; reaches a run on another instance. The current step finishes and parked approvals of the run are dropped.
         */
        post: operations["stopRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/runs/{id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run it again with the same input
         * @description Starts a new run of the run's automation with the same prompt and input (a dry run's rerun is a dry run), under the automation's retry and concurrency; it queues behind runs in flight. 409 when the automation was deleted; 429 when the owner's `runs` or `tokens` budget has nothing left (a dry run's rerun pays its `runs` unit here).
         */
        post: operations["rerunRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/{id}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run an automation now
         * @description A real run now, armed or not, like a scheduled one: its calls act as the owner away, with the automation's standing grants only (a write it was not granted waits for the owner's approval), under its retry and concurrency, queued behind runs in flight. 429 when the owner's `runs` or `tokens` budget has nothing left, before anything is kept.
         */
        post: operations["runAutomationNow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/automations/{id}/dry-run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Try an automation without it acting
         * @description Runs the task now (armed or not): reads run, and every write, destructive and egress call is recorded with its preview instead of executed. Answers once the run ended, with `previews`. No retries, no concurrency slot, no completion webhook. It pays one of the owner's `runs` and counts as one of their turns in flight: 429 when either is spent (or no `tokens` are left), before anything is kept.
         */
        post: operations["dryRunAutomation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tick": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fire the schedule slots that are due
         * @description For an external cron, on any instance. Each schedule slot fires exactly once across instances. The body is not read.
         */
        post: operations["tick"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{source}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver a signed webhook
         * @description Verified with the source's registered scheme before anything runs; a bad or stale signature, or an unknown source, is 401 with one audit event and nothing started. Starts one run per armed automation on the source, as `porter:webhook:<source>`. Deliveries are deduplicated by their id.
         */
        post: operations["receiveWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description The wire as this deployment mounts it (unmounted families are absent). Open it in any OpenAPI viewer.
         */
        get: operations["getOpenApiDocument"];
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
        /** @description Every non-2xx wire answer (the MCP door answers in OAuth and JSON-RPC shapes instead). */
        ErrorEnvelope: {
            error: {
                /**
                 * @description Stable: a client branches on it (the HTTP status follows from it).
                 * @enum {string}
                 */
                code: "validation" | "unauthorized" | "cloud-required" | "forbidden" | "not-found" | "method-not-allowed" | "conflict" | "payload-too-large" | "unsupported-media-type" | "rate-limited" | "internal" | "not-implemented" | "unavailable";
                /** @description For people; it may change. */
                message: string;
                /** @description Facts about the failure, e.g. `issues` for `validation` (`[{path, message}]`). */
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        Status: {
            /** @description Porter's version. */
            version: string;
            blocks: {
                /** @enum {string} */
                store: "memory" | "sqlite" | "postgresql";
                agent: boolean;
                actions: boolean;
                guard: boolean;
                apps: boolean;
                automations: boolean;
                sandbox: ("e2b" | "cloud" | "custom") | false;
                /** @enum {string} */
                model: "custom" | "ladder";
                mcp: ("local" | "broker") | false;
                connections: ("byo" | "cloud") | false;
            };
        };
        /** @description The caller's audit events. */
        ActivityPage: {
            events: {
                id: string;
                /** @description An ISO 8601 instant. */
                at: string;
                subject: string;
                /** @description What happened, e.g. `webhook.verification-failed`. */
                action: string;
                /** @description How it ended, e.g. `act-as-subject-mismatch`. */
                outcome: string;
                details?: {
                    [key: string]: unknown;
                };
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        BaseUrlCheck: {
            set: boolean;
        };
        /** @description The caller's pending approvals. */
        ApprovalList: {
            approvals: components["schemas"]["Approval"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        Approval: {
            /** @description The `apr_` id. */
            id: string;
            /** @enum {string} */
            state: "pending" | "approved" | "denied" | "expired" | "executed";
            /** @description Absent while pending in the resume window (the approved call is executing): keep polling until `executed`. */
            request?: components["schemas"]["ApprovalRequest"];
            outcome?: components["schemas"]["ApprovalOutcome"];
        };
        /** @description What was asked. */
        ApprovalRequest: {
            toolCallId: string;
            tool: string;
            input: unknown;
            risk: components["schemas"]["Risk"];
            egress: boolean;
            /** @description One line a person can read: what the call will do. */
            preview: string;
            /** @enum {string} */
            venue: "chat" | "app" | "automation" | "mcp";
            /** @enum {string} */
            presence: "present" | "away";
            session: string;
            threadId?: string;
            runId?: string;
            automationId?: string;
            /** @description On an approval an automation raised: a grant it leaves (the standing grant an arming ask asks for, or a remembered yes) covers only that automation's runs. */
            appliesTo?: components["schemas"]["GrantReach"];
            appId?: string;
            contentHash?: string;
        };
        /** @enum {string} */
        Risk: "read" | "write" | "destructive";
        /** @description Which of the subject's calls a grant may cover: `anywhere` (wherever its session and door consent allow) or `automation` (only calls made by a run of that automation). */
        GrantReach: {
            /** @constant */
            kind: "anywhere";
        } | {
            /** @constant */
            kind: "automation";
            automationId: string;
            /** @description The automation's name when the grant was asked for. */
            name?: string;
        };
        ApprovalOutcome: {
            /** @constant */
            kind: "executed";
            /** @constant */
            ok: true;
            output: unknown;
        } | {
            /** @constant */
            kind: "executed";
            /** @constant */
            ok: false;
            error: string;
        } | {
            /** @constant */
            kind: "denied";
        } | {
            /** @constant */
            kind: "expired";
            /** @enum {string} */
            reason: "timeout" | "dropped" | "invalidated";
        };
        DecidedApprovals: {
            approvals: components["schemas"]["Approval"][];
        };
        GrantList: {
            grants: components["schemas"]["Grant"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        /** @description A remembered yes: matching calls of the grant's subject run without asking. */
        Grant: {
            id: string;
            subject: string;
            tool: string;
            /** @enum {string} */
            scope: "tool" | "exact";
            /** @enum {string} */
            duration: "session" | "standing";
            session: string | null;
            appliesTo: components["schemas"]["GrantReach"];
            origin: {
                /** @constant */
                kind: "approval";
                approvalId: string;
            } | {
                /** @constant */
                kind: "automation";
                automationId: string;
                approvalId: string;
            };
            /** @description An ISO 8601 instant. */
            createdAt: string;
            revokedAt: string | null;
        };
        /** @description The caller's usage of each budget over its rolling window. */
        UsageReport: {
            /** @description Each budget the deployment meters (its `limits` option); empty when it sets none. */
            budgets: {
                turns?: components["schemas"]["BudgetUsage"];
                tokens?: components["schemas"]["BudgetUsage"];
                toolCalls?: components["schemas"]["BudgetUsage"];
                appGenerations?: components["schemas"]["BudgetUsage"];
                uploadBytes?: components["schemas"]["BudgetUsage"];
                runs?: components["schemas"]["BudgetUsage"];
                embeddingTokens?: components["schemas"]["BudgetUsage"];
            };
            /** @description For an anonymous session, when the deployment shares budgets per address (`limits.anonymousPerAddress`): what every anonymous session calling from its address used together. */
            addressBudgets?: {
                turns?: components["schemas"]["BudgetUsage"];
                tokens?: components["schemas"]["BudgetUsage"];
                toolCalls?: components["schemas"]["BudgetUsage"];
                appGenerations?: components["schemas"]["BudgetUsage"];
                uploadBytes?: components["schemas"]["BudgetUsage"];
                runs?: components["schemas"]["BudgetUsage"];
                embeddingTokens?: components["schemas"]["BudgetUsage"];
            };
        };
        BudgetUsage: {
            /** @description Units counted in the current window (tokens for `tokens`). */
            used: number;
            max: number;
            windowSeconds: number | null;
            remaining: number;
            /** @description When the oldest unit still counted frees; null when nothing is counted. */
            resetsAt: string | null;
            /** @description Seconds until a unit frees, when none is left; null otherwise. */
            retryAfter: number | null;
        };
        /** @description The host's tools, by name (Porter's own `porter_*` tools are not listed). */
        ToolList: {
            tools: components["schemas"]["ToolSummary"][];
        };
        ToolSummary: {
            name: string;
            description: string;
            /** @enum {string} */
            risk: "read" | "write" | "destructive";
            /** @description It reaches outside the host, so it asks even when it only reads. */
            egress: boolean;
            /** @description The toolkit whose connected account it acts through. */
            connection: string | null;
        };
        /** @description Newest first; with `q`, best match first. */
        ThreadList: {
            threads: components["schemas"]["ThreadListItem"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        ThreadListItem: {
            id: string;
            title: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
            /** @description With `q` only: the best stretch of the title or a message holding the words. */
            match?: components["schemas"]["ThreadMatch"];
        };
        /** @description Where a search found its words in the thread. */
        ThreadMatch: {
            /** @description Plain text (never markup) cut around the match, with `…` where the title or message goes on. */
            snippet: string;
            /** @description The matched words in `snippet`, to show highlighted: UTF-16 offsets (JavaScript string indices), `end` exclusive. */
            highlights: {
                start: number;
                end: number;
            }[];
            /** @description The message the snippet is from; absent when it is from the title. */
            messageId?: string;
        };
        Created: {
            id: string;
        };
        Thread: {
            id: string;
            title: string;
            messages: components["schemas"]["UiMessage"][];
            /** @description The shown messages that have other versions, in the order of `messages`; switch with `POST /threads/:id/messages/:messageId/versions`. */
            versions: components["schemas"]["MessageVersions"][];
        };
        /** @description A message in the AI SDK UIMessage format, as a stock `ai` client renders it. */
        UiMessage: {
            id: string;
            /** @enum {string} */
            role: "system" | "user" | "assistant";
            parts: components["schemas"]["UiMessagePart"][];
            /** @description The message’s metadata: what the client sent with it, and `interrupted` when Porter marks it. */
            metadata?: {
                interrupted?: components["schemas"]["MessageInterruption"];
            } & {
                [key: string]: unknown;
            };
        };
        /** @description A part of an AI SDK UIMessage; each kind carries the AI SDK's own fields. */
        UiMessagePart: {
            /** @description `text`, `file`, `reasoning`, `step-start`, `source-url`, `source-document`, `tool-<name>`, `dynamic-tool` or `data-<name>`. */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /** @description The turn answering this message did not finish: on the answer as far as it got, or on the person’s message when no answer was kept. A turn that answers it again (the AI SDK’s regenerate) clears it. A person’s stop is no interruption. */
        MessageInterruption: {
            /**
             * @description `model-failed`: the model failed mid-answer; `limit-reached`: a budget or breaker ran out; `given-up`: nobody read the turn for `turnGraceSeconds`; `instance-stopped`: the instance writing it stopped (a crash, its lease lapsing) before the answer was saved whole.
             * @enum {string}
             */
            reason: "model-failed" | "limit-reached" | "given-up" | "instance-stopped";
            /** @description What happened, in words a person reads. */
            message: string;
        };
        /** @description A message regenerate or edit and resend replaced: every version is kept, and the thread shows one. */
        MessageVersions: {
            /** @description The shown message that has other versions: the first message of the version shown. */
            messageId: string;
            /** @description Which version is shown, from 0 (the oldest). */
            index: number;
            /** @description How many versions there are. */
            count: number;
        };
        ThreadSummary: {
            id: string;
            title: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
        };
        /** @description The JSON of one event of the AI SDK UI message stream protocol v1, as a Porter turn sends it; `type` tells the kinds apart. A stock AI SDK reader (`readUIMessageStream`, `useChat`) folds them into the assistant UIMessage. */
        UiMessageChunk: {
            /** @constant */
            type: "start";
            messageId?: string;
        } | {
            /** @constant */
            type: "start-step";
        } | {
            /** @constant */
            type: "finish-step";
        } | {
            /** @constant */
            type: "text-start";
            id: string;
        } | {
            /** @constant */
            type: "text-delta";
            id: string;
            delta: string;
        } | {
            /** @constant */
            type: "text-end";
            id: string;
        } | {
            /** @constant */
            type: "tool-input-available";
            toolCallId: string;
            toolName: string;
            input: unknown;
        } | {
            /** @constant */
            type: "tool-output-available";
            toolCallId: string;
            output: unknown;
        } | {
            /** @constant */
            type: "tool-output-error";
            toolCallId: string;
            errorText: string;
        } | {
            /** @constant */
            type: "tool-approval-request";
            approvalId: string;
            toolCallId: string;
        } | {
            /** @constant */
            type: "tool-output-denied";
            toolCallId: string;
        } | {
            /** @constant */
            type: "error";
            errorText: string;
        } | {
            /** @constant */
            type: "abort";
            reason?: string;
        } | {
            /** @constant */
            type: "finish";
            /** @enum {string} */
            finishReason?: "stop" | "length" | "tool-calls" | "error" | "other";
        } | {
            /** @constant */
            type: "data-porter-approval";
            /** @description `porter-approval:<approvalId>`. */
            id: string;
            data: {
                approvalId: string;
                toolCallId: string;
                risk: components["schemas"]["Risk"];
                preview: string;
            };
        } | {
            /** @constant */
            type: "data-porter-view";
            /** @description `porter-view:<appId>`: a later part with the same id replaces it in place. */
            id: string;
            data: components["schemas"]["AppView"];
        } | {
            /** @constant */
            type: "data-porter-error";
            id?: string;
            data: {
                message: string;
                /** @description The envelope code, e.g. `rate-limited`. */
                code?: string;
                /** @description The budget that ran out. */
                budget?: string;
                /** @description Seconds until it frees a unit. */
                retryAfter?: number;
            };
        } | {
            /** @constant */
            type: "data-porter-connect";
            /** @description `porter-connect:<toolCallId>`. */
            id: string;
            data: {
                toolkit: string;
                tool: string;
                toolCallId: string;
            };
        } | {
            /** @constant */
            type: "data-porter-tool-result";
            /** @description `porter-tool-result:<toolCallId>`. */
            id: string;
            data: {
                toolCallId: string;
                approvalId: string;
                /** @enum {string} */
                state: "output-available" | "output-error" | "output-denied";
                output?: unknown;
                errorText?: string;
            };
        } | {
            /** @constant */
            type: "data-porter-memory";
            /** @description `porter-memory:<toolCallId>`. */
            id: string;
            data: {
                /** @enum {string} */
                action: "saved" | "forgotten";
                memoryId: string;
                /** @description What was remembered (or forgotten). */
                text: string;
            };
        } | {
            /** @constant */
            type: "source-document";
            /** @description For a knowledge passage: its `psg_` id (`GET /knowledge/passages/{id}` reads it). */
            sourceId: string;
            /** @description The document's media type. */
            mediaType: string;
            /** @description The document's title. */
            title: string;
            filename?: string;
            /** @description By provider. Porter's citations of a knowledge passage carry `porter: {documentId, passageId, start, end}`: the passage's place in the document's text (UTF-16 offsets, end exclusive). */
            providerMetadata?: {
                [key: string]: {
                    [key: string]: string | number | boolean | null;
                };
            };
        } | {
            /** @constant */
            type: "source-url";
            sourceId: string;
            url: string;
            title?: string;
            /** @description By provider. Porter's citations of a knowledge passage carry `porter: {documentId, passageId, start, end}`: the passage's place in the document's text (UTF-16 offsets, end exclusive). */
            providerMetadata?: {
                [key: string]: {
                    [key: string]: string | number | boolean | null;
                };
            };
        } | {
            type: string;
            id?: string;
            data: unknown;
        };
        /** @description What the renderer draws while an app is generated and once it is ready. */
        AppView: {
            appId: string;
            /** @enum {string} */
            status: "generating" | "ready" | "failed";
            title: string | null;
            /** @enum {string} */
            ui: "tree" | "http";
            root: string | null;
            nodes: {
                [key: string]: {
                    type: string | null;
                    props: {
                        [key: string]: string | number | boolean | null;
                    };
                    children: string[];
                    /** @description Its source has not arrived yet: draw a skeleton. */
                    pending: boolean;
                    bind?: string;
                    action?: string;
                };
            };
            /** @description Why generation failed. */
            message?: string;
            pinDrift?: components["schemas"]["PinDrift"];
        };
        PinDrift: {
            slot: string;
            baselineHash: string;
            currentHash: string;
        };
        /** @description `{message}` (a text, or a user UIMessage), `{continue: true}`, or the AI SDK chat transport's own body (only its last message is read). A rule JSON Schema cannot say: in the chat body, the last message must be the user's, with text and file parts only, or the assistant's (carrying the approval answers); another last message is 400 `validation`. A new message's file parts name files the caller uploaded in this thread (another is 404), at most `uploads.maxFilesPerMessage` of them (more is 400 `validation`), of types the model can read or be given as text (another is 415). */
        TurnBody: {
            message: string | {
                id?: string;
                /** @constant */
                role: "user";
                parts: ({
                    /** @constant */
                    type: "text";
                    text: string;
                    /** @enum {string} */
                    state?: "streaming" | "done";
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    type: "file";
                    mediaType: string;
                    /** @description The url `POST /threads/:id/files` answered; a `data:` or `http(s):` url is refused (400). */
                    url: string;
                    filename?: string;
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                })[];
                metadata?: unknown;
            };
        } | {
            /** @constant */
            continue: true;
        } | {
            id?: string;
            messages: {
                id: string;
                /** @enum {string} */
                role: "system" | "user" | "assistant";
                parts: ({
                    /** @constant */
                    type: "text";
                    text: string;
                    /** @enum {string} */
                    state?: "streaming" | "done";
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    type: "file";
                    mediaType: string;
                    url: string;
                    filename?: string;
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    type: "reasoning";
                    id?: string;
                    text: string;
                    /** @enum {string} */
                    state?: "streaming" | "done";
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    type: "step-start";
                } | {
                    /** @constant */
                    type: "source-url";
                    sourceId: string;
                    url: string;
                    title?: string;
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    /** @constant */
                    type: "source-document";
                    sourceId: string;
                    mediaType: string;
                    title: string;
                    filename?: string;
                    providerMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    type: string;
                    toolCallId: string;
                    toolName?: string;
                    /** @enum {string} */
                    state: "input-streaming" | "input-available" | "approval-requested" | "approval-responded" | "output-available" | "output-error" | "output-denied";
                    input?: unknown;
                    rawInput?: unknown;
                    /** @enum {string} */
                    inputEncoding?: "json" | "text";
                    output?: unknown;
                    errorText?: string;
                    approval?: {
                        id: string;
                        approved?: boolean;
                        reason?: string;
                        descriptor?: unknown;
                        signature?: string;
                        inputSchemaInput?: unknown;
                    };
                    title?: string;
                    toolMetadata?: {
                        [key: string]: unknown;
                    };
                    providerExecuted?: boolean;
                    preliminary?: boolean;
                    dynamic?: boolean;
                    callProviderMetadata?: {
                        [key: string]: unknown;
                    };
                    resultProviderMetadata?: {
                        [key: string]: unknown;
                    };
                } | {
                    type: string;
                    id?: string;
                    data: unknown;
                })[];
                metadata?: unknown;
            }[];
            /** @enum {string} */
            trigger?: "submit-message" | "regenerate-message";
            messageId?: string;
        };
        TurnStopped: {
            stopped: boolean;
        };
        UploadedFile: {
            /** @description The file id (`fil_…`). */
            id: string;
            threadId: string;
            /** @description Where the owner reads the bytes (`{wire}/files/:id`); a message's `file` part carries this url to attach the file. */
            url: string;
            filename: string;
            /** @description What the bytes were judged to be from their content (never the type the client sent). */
            mediaType: string;
            size: number;
            createdAt: string;
        };
        ConnectionList: {
            connections: components["schemas"]["Connection"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        Connection: {
            id: string;
            toolkit: string;
            /** @enum {string} */
            status: "initiated" | "active" | "failed" | "expired";
        };
        ToolkitList: {
            toolkits: {
                /** @description The slug `POST /connections/initiate` takes. */
                toolkit: string;
                /** @description What a person calls it. */
                name: string;
            }[];
        };
        ConnectionInitiated: {
            id: string;
            /** @description The broker's page: open it, then poll the connection. */
            redirectUrl: string;
        };
        /** @description The caller's memories, newest first. */
        MemoryList: {
            memories: components["schemas"]["Memory"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        /** @description One thing the agent remembers about the caller. */
        Memory: {
            /** @description The `mem_` id. */
            id: string;
            text: string;
            source: components["schemas"]["MemorySource"];
            /** @description Grows with every edit; `PATCH` names the revision it changes. */
            revision: number;
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
        };
        /** @description Who kept it: the agent in a conversation (`memory_save`), or the person. */
        MemorySource: {
            /** @constant */
            kind: "agent";
            threadId?: string;
            runId?: string;
            /** @description The `memory_save` call that kept it. */
            toolCallId: string;
        } | {
            /** @constant */
            kind: "person";
        };
        /** @description Every memory the caller keeps. */
        MemoryExport: {
            /** @constant */
            format: "porter-memories";
            /** @constant */
            version: 1;
            /** @description An ISO 8601 instant. */
            exportedAt: string;
            memories: components["schemas"]["Memory"][];
        };
        /** @description Every document, newest first. */
        KnowledgeDocumentList: {
            documents: components["schemas"]["KnowledgeDocument"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        /** @description A document the agent answers from. */
        KnowledgeDocument: {
            /** @description The `doc_` id. */
            id: string;
            title: string;
            /** @enum {string} */
            format: "text" | "markdown" | "html" | "pdf";
            mediaType: string;
            scope: components["schemas"]["DocumentScope"];
            /** @description The size it was given in. */
            bytes: number;
            /** @description The length of its text (UTF-16 code units, as passages' offsets count). */
            characters: number;
            /** @description How many passages it was cut into. */
            passages: number;
            /** @description An ISO 8601 instant. */
            createdAt: string;
        };
        /** @description Who may be answered from it: everyone, the people acting in one org (the host's `knowledge.org`), or one person (a subject). */
        DocumentScope: {
            /** @constant */
            kind: "everyone";
        } | {
            /** @constant */
            kind: "org";
            org: string;
        } | {
            /** @constant */
            kind: "person";
            subject: string;
        };
        /** @description A passage of a document, as a citation opens it. */
        Passage: {
            /** @description The `psg_` id: what a citation (`source-document` part) names as its `sourceId`. */
            id: string;
            documentId: string;
            /** @description The document's title. */
            title: string;
            /** @description The document's media type. */
            mediaType: string;
            /** @description Where the passage starts in the document's text (a UTF-16 offset). */
            start: number;
            /** @description Where it ends (exclusive). */
            end: number;
            text: string;
        };
        PendingDeletionList: {
            /** @description Soonest to go first. */
            deletions: components["schemas"]["PendingDeletion"][];
        };
        /** @description A deletion waiting out its undo window: the thing is already out of use (hidden from its list, not fired, a grant revoked, a connection not used) and is deleted for good after `undoUntil`. */
        PendingDeletion: {
            /** @description The thing's own id (`app_…`, `atm_…`, `mem_…`, `thr_…`, `grt_…`, `con_…`). */
            id: string;
            kind: components["schemas"]["DeletableKind"];
            /** @description What the person calls it (a title, a name, a tool, a toolkit). */
            label: string;
            /** @description Until when `POST /deletions/{id}/undo` brings it back; it is deleted for good after. */
            undoUntil: string;
        };
        /**
         * @description What kind of thing a deletion with a way back names.
         * @enum {string}
         */
        DeletableKind: "app" | "automation" | "memory" | "thread" | "grant" | "connection";
        AppList: {
            apps: components["schemas"]["AppSummary"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        AppSummary: {
            id: string;
            title: string;
            /** @enum {string} */
            ui: "tree" | "http";
            /** @enum {string} */
            scope: "owner" | "shared";
            version: string;
            versionNumber: number;
            nodes: number;
            /** @description The remixable slot this app forks, if it is a fork. */
            slot: string | null;
            drifted: boolean;
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
        };
        App: {
            id: string;
            title: string;
            /** @enum {string} */
            ui: "tree" | "http";
            /** @enum {string} */
            scope: "owner" | "shared";
            version: string;
            versionNumber: number;
            nodes: number;
            /** @description The remixable slot this app forks, if it is a fork. */
            slot: string | null;
            drifted: boolean;
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
            document: components["schemas"]["AppDocument"];
            contentHash: string;
            /** @description `fn:<name>` references; they run only once the app is served. */
            fnRefs: string[];
        };
        /** @description A generated app: a tree of nodes the shipped renderer draws, bound to its own records and actions. */
        AppDocument: {
            /** @constant */
            format: 1;
            title: string;
            /**
             * @description `http` once the app has graduated to a served app.
             * @enum {string}
             */
            ui: "tree" | "http";
            /** @enum {string} */
            scope: "owner" | "shared";
            /** @description The id of the root node. */
            root: string;
            nodes: {
                [key: string]: {
                    /** @enum {string} */
                    type: "stack" | "row" | "grid" | "card" | "heading" | "text" | "button" | "input" | "textarea" | "checkbox" | "select" | "list" | "table" | "image" | "link" | "divider" | "form" | "chart";
                    props?: {
                        [key: string]: string | number | boolean | null;
                    };
                    children?: string[];
                    /** @description A key of `data`. */
                    bind?: string;
                    /** @description A key of `actions`. */
                    action?: string;
                };
            };
            data: {
                [key: string]: {
                    collection: string;
                };
            };
            actions: {
                [key: string]: {
                    /** @constant */
                    kind: "put-record";
                    collection: string;
                } | {
                    /** @constant */
                    kind: "delete-record";
                    collection: string;
                } | {
                    /** @constant */
                    kind: "call";
                    /** @description `fn:<name>`: runs only once the app is served. */
                    target: string;
                } | {
                    /** @constant */
                    kind: "tool";
                    tool: string;
                    input?: {
                        [key: string]: string | number | boolean | null;
                    };
                };
            };
            server: {
                files: {
                    [key: string]: string;
                };
            } | null;
            egress: {
                allowDomains: string[];
            } | null;
        };
        PlacementList: {
            placements: {
                slot: string;
                /** @description The caller's newest fork of the slot; null: render the host's own component. */
                appId: string | null;
                version: string | null;
                drifted: boolean;
            }[];
        };
        OpenPayload: {
            /**
             * @description `resuming`: served, but its server is being brought back. `stopped`: its sandbox stopped its server for crossing a limit (see `stopped`).
             * @enum {string}
             */
            kind: "tree" | "http" | "resuming" | "stopped";
            payload?: {
                appId: string;
                version: string;
                document: components["schemas"]["AppDocument"];
            };
            /** @description A served app's own page through the wire (`/apps/<id>/view/`); frame it sandboxed. */
            url?: string;
            pinDrift: components["schemas"]["PinDrift"] | null;
            stopped?: {
                /** @enum {string} */
                limit: "processes" | "memory" | "cpu" | "disk";
                /** @description For its owner: what it crossed. */
                message: string;
                /** @description When a request may start it again (ISO 8601); an edit starts it at once. */
                retryAt: string;
            };
        };
        EditResult: {
            app: components["schemas"]["App"];
            driftedPins: components["schemas"]["PinDrift"][];
            issues?: string[];
        };
        VersionList: {
            versions: {
                id: string;
                number: number;
                /** @enum {string} */
                change: "create" | "edit" | "import" | "seed" | "rebase" | "graduate";
                contentHash: string;
                /** @description An ISO 8601 instant. */
                createdAt: string;
                instruction?: string;
            }[];
        };
        /** @description Any JSON value. */
        JsonValue: unknown;
        AppRecordList: {
            records: components["schemas"]["AppRecord"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        AppRecord: {
            id: string;
            collection: string;
            data: components["schemas"]["JsonValue"];
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
        };
        Deleted: {
            deleted: number;
        };
        StoredBlob: {
            key: string;
            contentType: string;
            size: number;
        };
        ActionAnswer: {
            /** @constant */
            status: "ran";
            output: unknown;
        } | {
            /** @constant */
            status: "parked";
            approvalId: string;
            toolCallId: string;
            risk: components["schemas"]["Risk"];
            preview: string;
        };
        JsonRpcBody: components["schemas"]["JsonRpcMessage"] | components["schemas"]["JsonRpcMessage"][];
        /** @description A JSON-RPC 2.0 request, notification or response of the Model Context Protocol. */
        JsonRpcMessage: {
            /** @constant */
            jsonrpc: "2.0";
            id?: string | number | null;
            method?: string;
            params?: unknown;
            result?: unknown;
            error?: {
                code: number;
                message: string;
                data?: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description How the transport refuses a request. */
        JsonRpcError: {
            /** @constant */
            jsonrpc: "2.0";
            error: {
                code: number;
                message: string;
            };
            id: null;
        };
        /** @description OAuth's error shape (RFC 6749 §5.2); the door's OAuth endpoints answer with it, never the wire envelope. */
        OAuthError: {
            /** @description An OAuth error code, e.g. `invalid_request`, `invalid_grant`, `invalid_client`. */
            error: string;
            error_description: string;
        };
        ConsentForm: {
            /** @description As the consent page gave it. */
            handle: string;
            /** @enum {string} */
            decision: "allow" | "deny";
        };
        TokenResponse: {
            access_token: string;
            /** @constant */
            token_type: "Bearer";
            /** @description Seconds. */
            expires_in: number;
            refresh_token: string;
            scope: string;
        };
        TokenForm: {
            /** @enum {string} */
            grant_type: "authorization_code" | "refresh_token";
            /** @description authorization_code: the code from the redirect. */
            code?: string;
            /** @description authorization_code: the redirect URI of the authorization request. */
            redirect_uri?: string;
            /** @description authorization_code: the PKCE verifier (S256). */
            code_verifier?: string;
            /** @description refresh_token: the refresh token; it rotates on every use. */
            refresh_token?: string;
            /** @description refresh_token: optional; whatever is asked, the scope granted (`mcp`) is answered. */
            scope?: string;
            /** @description The door's resource URL (RFC 8707). */
            resource?: string;
            /** @description Required unless the client authenticates with HTTP Basic: a public client (`none`), or `client_secret_post`; one not registered with this door is 401 `invalid_client`. */
            client_id?: string;
            /** @description `client_secret_post` only. */
            client_secret?: string;
        };
        RevocationForm: {
            /** @description An access or refresh token. */
            token: string;
            /** @description `access_token` or `refresh_token`: where to look first; any other value is ignored (RFC 7009 §2.1). */
            token_type_hint?: string;
            /** @description The client the token was issued to: required unless it authenticates with HTTP Basic; one not registered with this door, or not the token's, is 400. */
            client_id?: string;
            /** @description `client_secret_post` only. */
            client_secret?: string;
        };
        /** @description RFC 7591 client information. */
        ClientRegistration: {
            client_id: string;
            /** @description Confidential clients only, and only in this answer. */
            client_secret?: string;
            /** @constant */
            client_secret_expires_at?: 0;
            client_id_issued_at: number;
            redirect_uris: string[];
            client_name: string;
            grant_types: string[];
            response_types: string[];
            /** @enum {string} */
            token_endpoint_auth_method: "none" | "client_secret_post" | "client_secret_basic";
            scope: string;
            client_uri?: string;
            logo_uri?: string;
            software_id?: string;
            software_version?: string;
        };
        /** @description RFC 7591 client metadata. Members the door does not know, or whose value it cannot use, are dropped; unsupported grant types, response types, scopes and authentication methods are narrowed to what the door does. The answer shows what was kept. */
        ClientMetadata: {
            /** @description `https:` URIs, `http:` on a loopback host (`127.0.0.1`, `[::1]`, `localhost`; any port matches later), or a private-use scheme (`cursor://…`; not `javascript:`, `data:`, `file:` and the like); no credentials, no fragment. */
            redirect_uris: string[];
            /** @description Any value: kept when it is a name of 1 to 200 characters, else dropped. */
            client_name?: unknown;
            /** @description Any value: kept when it is a string; none, client_secret_post, client_secret_basic are kept, another method is replaced by `none` (PKCE binds a public client), else dropped. */
            token_endpoint_auth_method?: unknown;
            /** @description Any value: kept when it is a list of at most 20 grant types; those other than authorization_code and refresh_token are dropped, else dropped. */
            grant_types?: unknown;
            /** @description Any value: kept when it is a list of at most 10; only `code` is kept, else dropped. */
            response_types?: unknown;
            /** @description Any value: kept when it is a string, narrowed to `mcp`, else dropped. */
            scope?: unknown;
            /** @description Any value: kept when it is a URL, else dropped. */
            client_uri?: unknown;
            /** @description Any value: kept when it is a URL, else dropped. */
            logo_uri?: unknown;
            /** @description Any value: kept when it is a string of at most 200 characters, else dropped. */
            software_id?: unknown;
            /** @description Any value: kept when it is a string of at most 100 characters, else dropped. */
            software_version?: unknown;
        };
        /** @description RFC 9728 protected-resource metadata of the MCP transport. */
        ProtectedResourceMetadata: {
            resource: string;
            authorization_servers: string[];
            bearer_methods_supported: string[];
            scopes_supported: string[];
            resource_name: string;
            resource_documentation: string;
        };
        /** @description RFC 8414 metadata of the door's own authorization server. */
        AuthorizationServerMetadata: {
            issuer: string;
            authorization_endpoint: string;
            token_endpoint: string;
            registration_endpoint: string;
            /** @description A client may name itself by the https URL of its Client ID Metadata Document instead of registering. */
            client_id_metadata_document_supported: boolean;
            revocation_endpoint: string;
            response_types_supported: string[];
            response_modes_supported: string[];
            grant_types_supported: string[];
            code_challenge_methods_supported: string[];
            token_endpoint_auth_methods_supported: string[];
            revocation_endpoint_auth_methods_supported: string[];
            scopes_supported: string[];
            authorization_response_iss_parameter_supported: boolean;
            service_documentation: string;
        };
        /** @description An MCP Server Card (SEP-2127). */
        ServerCard: {
            $schema: string;
            name: string;
            title: string;
            description: string;
            version: string;
            remotes: {
                /** @constant */
                type: "streamable-http";
                url: string;
            }[];
            websiteUrl: string;
        };
        AutomationList: {
            automations: components["schemas"]["Automation"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        Automation: {
            /** @description The `atm_` id. */
            id: string;
            name: string;
            trigger: components["schemas"]["Trigger"];
            task: {
                prompt: string;
                tools?: string[];
            };
            armed: boolean;
            armedAt: string | null;
            /** @description The owner's subject: runs act as them, with their standing grants only. */
            owner: string;
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
            retry: components["schemas"]["Retry"];
            concurrency: components["schemas"]["Concurrency"];
            /** @description Where completion webhooks go (Standard Webhooks, signed); the secret is never shown here. */
            notify: {
                url: string;
                /** @description An ISO 8601 instant. */
                setAt: string;
            } | null;
            /** @description For an armed schedule: when it fires next. */
            nextRunAt?: string | null;
        };
        Trigger: {
            /** @constant */
            kind: "schedule";
            cron: string;
            timezone?: string;
        } | {
            /** @constant */
            kind: "webhook";
            source: string;
        };
        /** @description How a run that failed for a transient reason (model 5xx or timeout, store unavailable…) is tried again. */
        Retry: {
            /** @description Retries after the first attempt (0 to 10). */
            max: number;
            /** @description The wait before the first retry; each later wait doubles. */
            backoffSeconds: number;
        };
        Concurrency: {
            /** @description Runs of this automation in flight at once (1 to 100). */
            limit: number;
            /**
             * @description `queue`: a run that arrives while `limit` are in flight waits its turn; `skip`: it is recorded as skipped.
             * @enum {string}
             */
            whenBusy: "queue" | "skip";
        };
        SavedAutomation: {
            /** @description The `atm_` id. */
            id: string;
            name: string;
            trigger: components["schemas"]["Trigger"];
            task: {
                prompt: string;
                tools?: string[];
            };
            armed: boolean;
            armedAt: string | null;
            /** @description The owner's subject: runs act as them, with their standing grants only. */
            owner: string;
            /** @description An ISO 8601 instant. */
            createdAt: string;
            /** @description An ISO 8601 instant. */
            updatedAt: string;
            retry: components["schemas"]["Retry"];
            concurrency: components["schemas"]["Concurrency"];
            /** @description Where completion webhooks go (Standard Webhooks, signed); the secret is never shown here. */
            notify: {
                url: string;
                /** @description An ISO 8601 instant. */
                setAt: string;
            } | null;
            /** @description For an armed schedule: when it fires next. */
            nextRunAt?: string | null;
            /** @description Only when `notify` was set by this request: the `whsec_` secret completion webhooks are signed with. Shown once. */
            notifySecret?: string;
        };
        ArmResult: {
            automation: components["schemas"]["Automation"];
            /** @description The standing-grant asks now waiting in `/approvals`. */
            asks: {
                approvalId: string;
                tool: string;
            }[];
        };
        RunList: {
            runs: components["schemas"]["Run"][];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            nextCursor: string | null;
        };
        Run: {
            /** @description The `run_` id. */
            id: string;
            automationId: string;
            /**
             * @description `skipped`: it arrived while its automation was busy and its concurrency says `skip`.
             * @enum {string}
             */
            state: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "skipped";
            owner: string;
            /** @description Who started it: `porter:scheduler`, `porter:webhook:<source>`, or the owner for a rerun, a dry run or a run asked for now. */
            startedBy: string;
            cause: {
                /** @constant */
                kind: "schedule";
                slot: string;
            } | {
                /** @constant */
                kind: "webhook";
                source: string;
                deliveryId: string;
            } | {
                /** @constant */
                kind: "rerun";
                /** @description The run it repeats. */
                of: string;
            } | {
                /** @constant */
                kind: "dry-run";
            } | {
                /** @constant */
                kind: "run-now";
                /**
                 * @description Where the owner asked for it: `mcp` (the door), `chat`, or `wire` (`POST /automations/{id}/run`).
                 * @enum {string}
                 */
                venue: "mcp" | "chat" | "wire";
            };
            /** @description An ISO 8601 instant. */
            createdAt: string;
            startedAt: string | null;
            endedAt: string | null;
            stopRequestedAt: string | null;
            ending: ("completed" | "stopped" | "interrupted" | "error" | "skipped") | null;
            error: string | null;
            /** @description Every write, destructive and egress call was previewed instead of executed. */
            dryRun: boolean;
            /** @description Every attempt, oldest first: a retry after a transient failure is an attempt of its own. */
            attempts: components["schemas"]["RunAttempt"][];
            /** @description A queued run waiting to be tried again: when. */
            nextAttemptAt: string | null;
            /** @description How many of its tool calls ended in an error: a `succeeded` run with some finished with failed calls. 0 until it succeeds. */
            failedCalls: number;
        };
        RunAttempt: {
            number: number;
            /** @description An ISO 8601 instant. */
            startedAt: string;
            endedAt: string | null;
            /** @description Null while it goes on (or waits for an approval). */
            outcome: ("succeeded" | "failed" | "cancelled" | "interrupted") | null;
            error: string | null;
            /** @description For a failed attempt that was tried again: when the next one was due. */
            retryAt: string | null;
        };
        RunDetail: {
            /** @description The `run_` id. */
            id: string;
            automationId: string;
            /**
             * @description `skipped`: it arrived while its automation was busy and its concurrency says `skip`.
             * @enum {string}
             */
            state: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "skipped";
            owner: string;
            /** @description Who started it: `porter:scheduler`, `porter:webhook:<source>`, or the owner for a rerun, a dry run or a run asked for now. */
            startedBy: string;
            cause: {
                /** @constant */
                kind: "schedule";
                slot: string;
            } | {
                /** @constant */
                kind: "webhook";
                source: string;
                deliveryId: string;
            } | {
                /** @constant */
                kind: "rerun";
                /** @description The run it repeats. */
                of: string;
            } | {
                /** @constant */
                kind: "dry-run";
            } | {
                /** @constant */
                kind: "run-now";
                /**
                 * @description Where the owner asked for it: `mcp` (the door), `chat`, or `wire` (`POST /automations/{id}/run`).
                 * @enum {string}
                 */
                venue: "mcp" | "chat" | "wire";
            };
            /** @description An ISO 8601 instant. */
            createdAt: string;
            startedAt: string | null;
            endedAt: string | null;
            stopRequestedAt: string | null;
            ending: ("completed" | "stopped" | "interrupted" | "error" | "skipped") | null;
            error: string | null;
            /** @description Every write, destructive and egress call was previewed instead of executed. */
            dryRun: boolean;
            /** @description Every attempt, oldest first: a retry after a transient failure is an attempt of its own. */
            attempts: components["schemas"]["RunAttempt"][];
            /** @description A queued run waiting to be tried again: when. */
            nextAttemptAt: string | null;
            /** @description How many of its tool calls ended in an error: a `succeeded` run with some finished with failed calls. 0 until it succeeds. */
            failedCalls: number;
            /** @description What the agent said and did. */
            messages: components["schemas"]["UiMessage"][];
            /** @description In a dry run: the calls previewed instead of executed, in order. */
            previews: components["schemas"]["PreviewedCall"][];
            /** @description The completion webhook and each attempt at delivering it; null when there is none. */
            webhook: components["schemas"]["WebhookDeliveryLog"] | null;
        };
        PreviewedCall: {
            toolCallId: string;
            tool: string;
            /** @enum {string} */
            risk: "read" | "write" | "destructive";
            egress: boolean;
            /** @description What the call would have done. */
            preview: string;
        };
        WebhookDeliveryLog: {
            /** @description The `evt_` id, sent as `webhook-id` on every attempt. */
            id: string;
            url: string;
            /** @enum {string} */
            type: "run.completed" | "run.failed" | "run.cancelled";
            /** @enum {string} */
            state: "pending" | "delivered" | "failed";
            /** @description An ISO 8601 instant. */
            createdAt: string;
            nextAttemptAt: string | null;
            attempts: {
                number: number;
                /** @description An ISO 8601 instant. */
                at: string;
                /** @description The receiver's HTTP status; null when none answered. */
                status: number | null;
                error: string | null;
                durationMs: number;
            }[];
        };
        RunIds: {
            runIds: string[];
        };
        Deduplicated: {
            /** @constant */
            deduplicated: true;
        };
        /** @description An OpenAPI 3.1 document. */
        OpenApiDocument: {
            /** @constant */
            openapi: "3.1.0";
        } & {
            [key: string]: unknown;
        };
    };
    responses: {
        /** @description `cloud-required`: Organizations are a Porter Cloud capability: `/orgs`, and any `org` query or body field on `/approvals` and `/grants`, are refused before the principal resolver runs. */
        CloudRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `conflict`: The thing's state does not allow this now. */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `forbidden`: Not allowed: e.g. the host resolver returned a reserved (`porter:`) subject or a principal of kind `org`. */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `internal`: Something unexpected went wrong; the message is generic and the log has the cause. */
        Internal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `method-not-allowed`: The path exists but does not take this method (any method, `TRACE` among them); `Allow` lists the methods it takes. */
        MethodNotAllowed: {
            headers: {
                /** @description The methods this path takes, e.g. `GET, HEAD, DELETE`. */
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `not-found`: No such thing for this caller: an unknown id, or one that belongs to someone else (never revealed), or no such route. */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `not-implemented`: This deployment did not configure what the request needs (a model, a sandbox, a connection broker). */
        NotImplemented: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `payload-too-large`: The body is over its limit (JSON bodies: 4 MiB). Answered as soon as the limit is passed, with `Connection: close`: Porter reads and discards the rest of the body, then closes the connection. */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `rate-limited`: A usage limit or breaker tripped; `Retry-After` says when to try again and `details` names the budget. */
        RateLimited: {
            headers: {
                /** @description Seconds to wait. */
                "Retry-After"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `unauthorized`: The request could not be authenticated (a bad signature or secret). */
        Unauthorized: {
            headers: {
                /** @description The scheme to authenticate with. */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `unavailable`: A dependency is down or did not answer within its timeout (the database: `databaseTimeouts`), or the store cannot do this exactly once (no atomic operations): the request failed closed. */
        Unavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `unsupported-media-type`: A cookie-carrying request that changes state must be `application/json` (the CSRF floor), or the route demands another type. */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
        /** @description `validation`: The request is not valid: a malformed JSON body, JSON nested deeper than 64 levels, or input that fails its schema (`details.issues` lists each problem). */
        Validation: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorEnvelope"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Porter's version and its blocks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    listActivity: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Audit events, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityPage"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    checkBaseUrl: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether it is set; never its value. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BaseUrlCheck"];
                };
            };
            500: components["responses"]["Internal"];
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending approvals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovalList"];
                };
            };
            400: components["responses"]["Validation"];
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    decideApprovals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    ids: string[];
                    approve: boolean;
                };
            };
        };
        responses: {
            /** @description Every approval, decided. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecidedApprovals"];
                };
            };
            400: components["responses"]["Validation"];
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `apr_` id, or the parked tool-call id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    decideApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The `apr_` id, or the parked tool-call id. */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approve: boolean;
                    remember?: {
                        /** @enum {string} */
                        scope: "tool" | "exact";
                        /** @enum {string} */
                        duration: "session" | "standing";
                    };
                };
            };
        };
        responses: {
            /** @description The decided approval. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            400: components["responses"]["Validation"];
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listGrants: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Grants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GrantList"];
                };
            };
            400: components["responses"]["Validation"];
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    revokeGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A grant id (`grt_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            402: components["responses"]["CloudRequired"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageReport"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    listTools: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The host's tools. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolList"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    listThreads: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
                /** @description Words the title or a message must hold: each the start of a word, case and accents ignored. Never query syntax. */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Thread summaries, newest first (with `q`, best match first). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    createThread: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new thread. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Created"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    getThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The thread; its messages are AI SDK UIMessages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Thread"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    deleteThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    renameThread: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The new title (whitespace folded). */
                    title: string;
                };
            };
        };
        responses: {
            /** @description The renamed thread. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadSummary"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    showVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
                /** @description A message's id: the stored one, or the id the client sent it under. */
                messageId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Which version to show, from 0 (the oldest); below its `count`. */
                    index: number;
                };
            };
        };
        responses: {
            /** @description The thread as it now shows. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Thread"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    runTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TurnBody"];
            };
        };
        responses: {
            /** @description The turn as it happens. Server-sent events of the AI SDK UI message stream protocol v1. Each event is one `data:` line: a UiMessageChunk as JSON, and last `[DONE]`. While nothing else is sent for a while (a long tool call, a turn waiting in line) a comment line `: keep-alive` goes out, which SSE readers skip. Porter sends no `event`, `id` or `retry` fields. */
            200: {
                headers: {
                    /** @description The protocol version. */
                    "x-vercel-ai-ui-message-stream"?: "v1";
                    /** @description The thread the turn belongs to. */
                    "x-porter-thread-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: string | "[DONE]";
                    };
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    rejoinTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The turn in flight. Server-sent events of the AI SDK UI message stream protocol v1. Each event is one `data:` line: a UiMessageChunk as JSON, and last `[DONE]`. While nothing else is sent for a while (a long tool call, a turn waiting in line) a comment line `: keep-alive` goes out, which SSE readers skip. Porter sends no `event`, `id` or `retry` fields. */
            200: {
                headers: {
                    /** @description The protocol version. */
                    "x-vercel-ai-ui-message-stream"?: "v1";
                    /** @description The thread the turn belongs to. */
                    "x-porter-thread-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": {
                        data: string | "[DONE]";
                    };
                };
            };
            /** @description No turn is in flight on this thread. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    stopTurn: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Whether a turn was in flight and is stopped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnStopped"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    uploadFile: {
        parameters: {
            query?: {
                /** @description The name to show (path parts and control characters are dropped). */
                filename?: string;
                /** @description The file's own type when the body is sent as `application/octet-stream`; a hint only, judged against the bytes. */
                type?: string;
            };
            header?: never;
            path: {
                /** @description A thread id (`thr_…`). */
                id: string;
            };
            cookie?: never;
        };
        /** @description The file's bytes. */
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description The stored file. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadedFile"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    readFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A file id (`fil_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listConnections: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connections. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    listToolkits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Toolkits, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolkitList"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    initiateConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description A toolkit slug such as `github`. One the connection broker does not know is refused by it: 400 `validation` naming the broker. */
                    toolkit: string;
                    /** @description The host's page the broker returns the person to: an absolute http(s) URL without credentials. */
                    callbackUrl: string;
                };
            };
        };
        responses: {
            /** @description The connection, initiated. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectionInitiated"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    getConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connection id (`con_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Connection"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A connection id (`con_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    listMemories: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Memories, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    addMemory: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 1000 characters, kept trimmed; blank text or a control character (but tab and line breaks) is 400 `validation`. */
                    text: string;
                };
            };
        };
        responses: {
            /** @description The memory kept. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    exportMemories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memories. */
            200: {
                headers: {
                    /** @description `attachment` with the file name. */
                    "content-disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryExport"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    getMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A memory id (`mem_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memory. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    forgetMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A memory id (`mem_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    editMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A memory id (`mem_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 1000 characters, kept trimmed; blank text or a control character (but tab and line breaks) is 400 `validation`. */
                    text: string;
                    /** @description The `revision` the edit was made against. Another one stored since is 409 `conflict`, nothing overwritten. */
                    revision: number;
                };
            };
        };
        responses: {
            /** @description The memory, edited. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listDocuments: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every document, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocumentList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    addDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description 1 to 300 characters; what citations show. */
                    title: string;
                    /**
                     * @description `pdf` is given as `base64`; the others as `text` (or `base64` of UTF-8).
                     * @enum {string}
                     */
                    format: "text" | "markdown" | "html" | "pdf";
                    /** @description Who may be answered from it; default everyone. */
                    scope?: {
                        /** @constant */
                        kind: "everyone";
                    } | {
                        /** @constant */
                        kind: "org";
                        org: string;
                    } | {
                        /** @constant */
                        kind: "person";
                        subject: string;
                    };
                    /** @description The document, for `text`, `markdown` and `html`. */
                    text: string;
                } | {
                    /** @description 1 to 300 characters; what citations show. */
                    title: string;
                    /**
                     * @description `pdf` is given as `base64`; the others as `text` (or `base64` of UTF-8).
                     * @enum {string}
                     */
                    format: "text" | "markdown" | "html" | "pdf";
                    /** @description Who may be answered from it; default everyone. */
                    scope?: {
                        /** @constant */
                        kind: "everyone";
                    } | {
                        /** @constant */
                        kind: "org";
                        org: string;
                    } | {
                        /** @constant */
                        kind: "person";
                        subject: string;
                    };
                    /**
                     * Format: base64
                     * @description The document's bytes, base64: a PDF's always.
                     */
                    base64: string;
                };
            };
        };
        responses: {
            /** @description The document, indexed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocument"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    getDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document id (`doc_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KnowledgeDocument"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    removeDocument: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A document id (`doc_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    readPassage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A passage id (`psg_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The passage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Passage"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    listDeletions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending deletions, soonest to go first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingDeletionList"];
                };
            };
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    deleteLater: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    kind: components["schemas"]["DeletableKind"];
                    /** @description The id of the thing being deleted. */
                    id: string;
                };
            };
        };
        responses: {
            /** @description The pending deletion. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingDeletion"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    undoDeletion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The id of the thing being deleted. */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The deletion undone. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingDeletion"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    listApps: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Apps, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    createApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    prompt: string;
                };
            };
        };
        responses: {
            /** @description The new app. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    seedApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slot: string;
                    instruction?: string;
                };
            };
        };
        responses: {
            /** @description The fork. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    listPlacements: {
        parameters: {
            query: {
                /** @description Slot names, comma-separated (at most 50); blanks around the commas are ignored. */
                slots: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One placement per slot. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlacementList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    importApp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description An app file: a zip of `app.json` (the app document) and an optional `app/` tree of server files. */
        requestBody: {
            content: {
                "application/vnd.porter.app": unknown;
            };
        };
        responses: {
            /** @description The imported app. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    deleteApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    openApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document to render, or the served page to frame. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenPayload"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    editApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    instruction: string;
                };
            };
        };
        responses: {
            /** @description The edited app, and the pins that drifted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EditResult"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    listVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app's versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionList"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    exportApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app file (a zip of `app.json` and `app/`), as an attachment. */
            200: {
                headers: {
                    /** @description `attachment` with the file name. */
                    "content-disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.porter.app": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    rebasePin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    slot: string;
                };
            };
        };
        responses: {
            /** @description The rebased app. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EditResult"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    graduateApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The served app. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["App"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    callFunction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description The server function's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: components["schemas"]["JsonValue"];
                } | components["schemas"]["JsonValue"][];
            };
        };
        responses: {
            /** @description The function's answer: its status (2xx) and content type are the app's. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    viewServedApp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The served app's page or asset, as its server answered (status and content type are the app's); sandboxed, never cached. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    viewServedAppPath: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description The path inside the app; it may span several segments. */
                rest: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The served app's page or asset, as its server answered (status and content type are the app's); sandboxed, never cached. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listRecords: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppRecordList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    addRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["JsonValue"];
                };
            };
        };
        responses: {
            /** @description The new record. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppRecord"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteRecords: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many records went. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
                /** @description A record id: 1..128 letters, digits, `_` or `-`. */
                recordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppRecord"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    putRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
                /** @description A record id: 1..128 letters, digits, `_` or `-`. */
                recordId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    data: components["schemas"]["JsonValue"];
                };
            };
        };
        responses: {
            /** @description The record, replaced. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppRecord"];
                };
            };
            /** @description The record, created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppRecord"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteRecord: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A collection name: 1..64 letters, digits, `_` or `-`. */
                collection: string;
                /** @description A record id: 1..128 letters, digits, `_` or `-`. */
                recordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBlob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A blob key: 1..128 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, in their stored content type (never run as a page here). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "*/*": unknown;
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    putBlob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A blob key: 1..128 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
                key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description `type/subtype`, e.g. `image/png` (stored in lower case). */
                    contentType: string;
                    /** Format: base64 */
                    data: string;
                };
            };
        };
        responses: {
            /** @description What was stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredBlob"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteBlob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description A blob key: 1..128 letters, digits, `.`, `_` or `-`, starting with a letter or digit. */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    runAppAction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An app id (`app_…`). */
                id: string;
                /** @description The app action's name. */
                action: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @default {} */
                    input?: {
                        [key: string]: components["schemas"]["JsonValue"];
                    };
                };
            };
        };
        responses: {
            /** @description It ran: `{status: "ran", output}`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActionAnswer"];
                };
            };
            /** @description It waits for the person: `{status: "parked", approvalId, toolCallId, risk, preview}`. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActionAnswer"];
                };
            };
            400: components["responses"]["Validation"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    openMcpStream: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-sent events carrying JSON-RPC messages. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": unknown;
                };
            };
            /** @description No `Mcp-Session-Id`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description No usable bearer token. `WWW-Authenticate` points at the protected-resource metadata (`resource_metadata`), where a client discovers how to get one. */
            401: {
                headers: {
                    /** @description `Bearer resource_metadata="…", scope="mcp"`, with `error="invalid_token"` for a bad token. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description An `Origin` that is neither the base URL's (`PORTER_BASE_URL`; never the request's `Host`), one in `door.allowedOrigins`, nor a loopback one on a request that came to a loopback address (MCP transport 2025-11-25). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Mcp-Session-Id` names no session of this caller (ended, idle past its bound, or opened by another token): start a new one with `initialize`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Accept` must list `text/event-stream`. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description The session already has a stream open. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description The service is unavailable; try again shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
        };
    };
    postMcpMessages: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON-RPC message or batch. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["JsonRpcBody"];
            };
        };
        responses: {
            /** @description The JSON-RPC responses (the door answers requests in JSON). */
            200: {
                headers: {
                    /** @description On `initialize`: the session to send with every later request. */
                    "Mcp-Session-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcBody"];
                };
            };
            /** @description Notifications or responses only: accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not a valid JSON-RPC message, a second `initialize`, or no `Mcp-Session-Id` where one is needed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description No usable bearer token. `WWW-Authenticate` points at the protected-resource metadata (`resource_metadata`), where a client discovers how to get one. */
            401: {
                headers: {
                    /** @description `Bearer resource_metadata="…", scope="mcp"`, with `error="invalid_token"` for a bad token. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description An `Origin` that is neither the base URL's (`PORTER_BASE_URL`; never the request's `Host`), one in `door.allowedOrigins`, nor a loopback one on a request that came to a loopback address (MCP transport 2025-11-25). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Mcp-Session-Id` names no session of this caller (ended, idle past its bound, or opened by another token): start a new one with `initialize`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Accept` must list both `application/json` and `text/event-stream`. */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description The body is too large. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Content-Type` must be `application/json`. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description The service is unavailable; try again shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
        };
    };
    closeMcpSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session is closed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No `Mcp-Session-Id`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description No usable bearer token. `WWW-Authenticate` points at the protected-resource metadata (`resource_metadata`), where a client discovers how to get one. */
            401: {
                headers: {
                    /** @description `Bearer resource_metadata="…", scope="mcp"`, with `error="invalid_token"` for a bad token. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description An `Origin` that is neither the base URL's (`PORTER_BASE_URL`; never the request's `Host`), one in `door.allowedOrigins`, nor a loopback one on a request that came to a loopback address (MCP transport 2025-11-25). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description `Mcp-Session-Id` names no session of this caller (ended, idle past its bound, or opened by another token): start a new one with `initialize`. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            /** @description The service is unavailable; try again shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
        };
    };
    preflightMcp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    authorize: {
        parameters: {
            query: {
                response_type?: string;
                /** @description A client registered with this door (`POST /register`), or the https URL of its Client ID Metadata Document; another is 400. */
                client_id: string;
                redirect_uri?: string;
                code_challenge?: string | string[];
                code_challenge_method?: string | string[];
                scope?: string;
                state?: string;
                resource?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The consent page (it posts back here). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description A redirect: to the client's redirect URI (with `code` and `state`, or `error`), or to the host's sign-in page. */
            302: {
                headers: {
                    /** @description Where to go. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A request with nothing to redirect to: a page for browsers, OAuth JSON for anything else. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Sign in with the host first (when the host has no sign-in URL to redirect to). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The service is unavailable; try again shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    answerConsent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The consent form. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ConsentForm"];
            };
        };
        responses: {
            /** @description Back to the client's redirect URI, with `code` or `error=access_denied`. */
            303: {
                headers: {
                    /** @description Where to go. */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The form is incomplete, or its handle unknown, used or expired (it is single-use): a page for browsers, OAuth JSON for anything else. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The form was sent from another site: a page for browsers, OAuth JSON for anything else. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description The service is unavailable; try again shortly. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    issueTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The token request, form-encoded. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenForm"];
            };
        };
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description `invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope` or `invalid_target`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `invalid_client`: the client did not authenticate. */
            401: {
                headers: {
                    /** @description `Basic realm="porter-door"`: an unknown `client_id`, or a client that failed to authenticate. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `temporarily_unavailable`: the store cannot do this step exactly once; try again. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    preflightToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The revocation request, form-encoded. */
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["RevocationForm"];
            };
        };
        responses: {
            /** @description Revoked, or no such token: the answer is the same (an empty body). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not form-encoded, no `token` or `client_id`, unreadable Basic credentials, an unknown or unauthenticated client, or a token of another client. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `temporarily_unavailable`: the store cannot do this step exactly once; try again. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    preflightRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    registerClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Client metadata. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ClientMetadata"];
            };
        };
        responses: {
            /** @description The registered client (a confidential client gets its secret here, once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ClientRegistration"];
                };
            };
            /** @description `invalid_client_metadata` or `invalid_redirect_uri`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Something went wrong on our side. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description `temporarily_unavailable`: the store cannot do this step exactly once; try again. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
        };
    };
    preflightRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    showConnectPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The setup page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
        };
    };
    getDoorProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Where the transport gets its tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProtectedResourceMetadata"];
                };
            };
        };
    };
    preflightDoorProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getDoorAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The door's own authorization server. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
        };
    };
    preflightDoorAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Any origin may call. */
            204: {
                headers: {
                    /** @description `*`: the door reads no cookies, so any origin may call. */
                    "Access-Control-Allow-Origin"?: string;
                    /** @description The methods of this path. */
                    "Access-Control-Allow-Methods"?: string;
                    /** @description The request headers a browser may send. */
                    "Access-Control-Allow-Headers"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    listAutomations: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Automations, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    createAutomation: {
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
                    trigger: {
                        /** @constant */
                        kind: "schedule";
                        /** @description Five fields (minute, hour, day of the month, month, day of the week), optionally seconds first and a year last, or a nickname (`@daily`); e.g. `0 8 * * 1-5`. A field out of its range, or a schedule that never fires, is 400 `validation` naming `trigger.cron`. */
                        cron: string;
                        /** @description An IANA time zone, e.g. `Europe/Paris` (default UTC); an unknown one is 400 `validation`. */
                        timezone?: string;
                    } | {
                        /** @constant */
                        kind: "webhook";
                        /** @description A webhook source this deployment registered (`webhooks.sources`); another is 400 `validation`. */
                        source: string;
                    };
                    task: {
                        prompt: string;
                        /** @description Tools the task may call, by name; a name no tool has is 400 `validation`. */
                        tools?: string[];
                    };
                    retry?: {
                        /** @default 2 */
                        max?: number;
                        /** @default 30 */
                        backoffSeconds?: number;
                    };
                    concurrency?: {
                        /** @default 1 */
                        limit?: number;
                        /**
                         * @default queue
                         * @enum {string}
                         */
                        whenBusy?: "queue" | "skip";
                    };
                    notify?: {
                        /** @description An absolute http(s) URL without credentials. Porter must be willing to send there: an address the egress guard refuses (loopback or private in production, where the name resolves to one) is 400 `validation`. */
                        url: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The new automation. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedAutomation"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
        };
    };
    getAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The automation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    deleteAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    changeAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    trigger?: {
                        /** @constant */
                        kind: "schedule";
                        /** @description Five fields (minute, hour, day of the month, month, day of the week), optionally seconds first and a year last, or a nickname (`@daily`); e.g. `0 8 * * 1-5`. A field out of its range, or a schedule that never fires, is 400 `validation` naming `trigger.cron`. */
                        cron: string;
                        /** @description An IANA time zone, e.g. `Europe/Paris` (default UTC); an unknown one is 400 `validation`. */
                        timezone?: string;
                    } | {
                        /** @constant */
                        kind: "webhook";
                        /** @description A webhook source this deployment registered (`webhooks.sources`); another is 400 `validation`. */
                        source: string;
                    };
                    task?: {
                        prompt: string;
                        /** @description Tools the task may call, by name; a name no tool has is 400 `validation`. */
                        tools?: string[];
                    };
                    retry?: {
                        /** @default 2 */
                        max?: number;
                        /** @default 30 */
                        backoffSeconds?: number;
                    };
                    concurrency?: {
                        /** @default 1 */
                        limit?: number;
                        /**
                         * @default queue
                         * @enum {string}
                         */
                        whenBusy?: "queue" | "skip";
                    };
                    notify?: {
                        /** @description An absolute http(s) URL without credentials. Porter must be willing to send there: an address the egress guard refuses (loopback or private in production, where the name resolves to one) is 400 `validation`. */
                        url: string;
                    } | null;
                };
            };
        };
        responses: {
            /** @description The changed automation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SavedAutomation"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    armAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The armed automation and its asks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArmResult"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    disarmAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The disarmed automation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Automation"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description How many to answer (1–100). */
                limit?: number;
                /** @description The previous page's `nextCursor`. A cursor this list did not produce is 400 `validation`. */
                cursor?: string;
                automationId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunList"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["Internal"];
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A run id (`run_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run and what the agent said and did. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDetail"];
                };
            };
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["Internal"];
        };
    };
    stopRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A run id (`run_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The run, stopping or stopped. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    rerunRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A run id (`run_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The new run (`cause: {kind: "rerun", of}`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    runAutomationNow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description What the trigger would bring (a delivery body), shown to the agent before the task as a real delivery would be. */
                    input?: string;
                };
            };
        };
        responses: {
            /** @description The run, queued (`cause: {kind: "run-now", venue: "wire"}`). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    dryRunAutomation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An automation id (`atm_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description What the trigger would bring (a delivery body), shown to the agent before the task as a real delivery would be. */
                    input?: string;
                };
            };
        };
        responses: {
            /** @description The dry run, ended, with its transcript and previews. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDetail"];
                };
            };
            400: components["responses"]["Validation"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    tick: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The runs started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunIds"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    receiveWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A registered source name (a-z, 0-9, `_` and `-`). */
                source: string;
            };
            cookie?: never;
        };
        /** @description The payload exactly as signed, at most 1 MiB (reading stops past it). */
        requestBody: {
            content: {
                "*/*": unknown;
            };
        };
        responses: {
            /** @description Already received: nothing new started. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deduplicated"];
                };
            };
            /** @description Verified: the runs started. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunIds"];
                };
            };
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    /** @description Send it back in `If-None-Match`: 304 while the document is unchanged. */
                    ETag?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description Unchanged. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            500: components["responses"]["Internal"];
        };
    };
}
