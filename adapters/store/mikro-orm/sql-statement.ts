/** One SQL statement and its bound parameters, in the engine's placeholder form. */
export interface SqlStatement {
  readonly sql: string;
  readonly params: readonly unknown[];
}
