/**
 * A driving port: what the wire (or the door, or the CLI) calls. Application use cases implement
 * it; adapters see only this shape, never the classes.
 */
export interface UseCase<Input, Output> {
  execute(input: Input): Promise<Output>;
}
