/**
 * Records uncaught exceptions and unhandled rejections from now until `stop()`: a database that
 * stops answering or goes away must never end the process, whose default for either is to exit.
 */
export function recordUnhandledErrors(): { readonly seen: unknown[]; stop(): void } {
  const seen: unknown[] = [];
  const record = (error: unknown) => seen.push(error);
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
  return {
    seen,
    stop() {
      process.off('uncaughtException', record);
      process.off('unhandledRejection', record);
    },
  };
}
