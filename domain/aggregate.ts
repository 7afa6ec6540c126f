/**
 * What every aggregate here is underneath: its primitives (the record the store writes and reads
 * back), held unchanged. Changes never mutate them; they make a new aggregate with some fields
 * changed (`with`).
 */
export abstract class Aggregate<P extends object> {
  protected constructor(protected readonly props: P) {}

  toPrimitives(): P {
    return this.props;
  }

  /** The same kind of aggregate with `changes` over these primitives (each aggregate's constructor takes just its primitives). */
  protected with(changes: Partial<P>): this {
    const Same = this.constructor as new (props: P) => this;
    return new Same({ ...this.props, ...changes });
  }
}

/**
 * The base of an aggregate over primitives `P` whose fields `K` callers read as they are stored:
 * each is a read-only getter, so the aggregate lists them once instead of writing a getter apiece.
 * Whatever is derived (a default filled in, a value object) stays an explicit getter. The getters
 * live on the prototype, so an aggregate's only own state is still its primitives. The aggregate
 * declares a private constructor, so only its named constructors make one.
 *
 * `class App extends aggregateOf<AppPrimitives>().reading('id', 'owner') { … }`
 */
export function aggregateOf<P extends object>() {
  return {
    reading<K extends keyof P>(...fields: K[]): abstract new (props: P) => Aggregate<P> & { readonly [F in K]: P[F] } {
      abstract class Reading extends Aggregate<P> {
        static {
          for (const field of fields)
            Object.defineProperty(this.prototype, field, {
              get(this: Reading) {
                return this.props[field];
              },
            });
        }
      }
      // The getters are made at run time, so their types are taken on trust here.
      return Reading as never;
    },
  };
}
