import { aggregateOf } from '../aggregate.js';

/**
 * A user's fork of a remixable slot of a host component. It remembers the baseline it was made
 * from (the component file's hash) and the edits made since, so a rebase can replay them.
 */
export interface ForkPinPrimitives {
  readonly slot: string;
  readonly baselineHash: string;
  /** The host component's hash when the sync found it changed; null while current. */
  readonly driftedTo: string | null;
  /** Every edit instruction since the fork, oldest first. */
  readonly trail: ReadonlyArray<string>;
}

/** What the open payload, edit results and the sync report show of a drifted fork. */
export interface PinDrift {
  readonly slot: string;
  readonly baselineHash: string;
  readonly currentHash: string;
}

export class ForkPin extends aggregateOf<ForkPinPrimitives>().reading('slot', 'trail') {
  private constructor(props: ForkPinPrimitives) {
    super(props);
  }

  static fork(slot: string, baselineHash: string): ForkPin {
    return new ForkPin({ slot, baselineHash, driftedTo: null, trail: [] });
  }

  static fromPrimitives(props: ForkPinPrimitives): ForkPin {
    return new ForkPin(props);
  }

  get drifted(): boolean {
    return this.props.driftedTo !== null;
  }

  drift(): PinDrift | null {
    return this.props.driftedTo === null
      ? null
      : { slot: this.props.slot, baselineHash: this.props.baselineHash, currentHash: this.props.driftedTo };
  }

  /**
   * What the sync decides for the component's hash now: drifted when it differs from the
   * baseline, current again when the host went back to the baseline. Null when nothing changes.
   */
  synced(componentHash: string): ForkPin | null {
    const driftedTo = componentHash === this.props.baselineHash ? null : componentHash;
    return driftedTo === this.props.driftedTo ? null : this.with({ driftedTo });
  }

  recordEdit(instruction: string): ForkPin {
    return this.with({ trail: [...this.props.trail, instruction] });
  }

  /** Re-made from the new baseline with the same trail replayed. */
  rebasedOn(baselineHash: string): ForkPin {
    return this.with({ baselineHash, driftedTo: null });
  }
}
