/**
 * TCP keep-alive for every PostgreSQL connection Porter opens (the store's and pg-boss's), probing
 * after this much silence: a server whose host forgot the connection (it restarted, or failed
 * over behind the same address) answers the probe with a reset, and the idle connection is
 * dropped before anything picks it up. pg's options, as its Client and Pool read them.
 */
export const POSTGRESQL_KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;
