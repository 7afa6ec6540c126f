/** One problem with the configuration: the option (and the variable it came from) and what is wrong. */
export interface PorterConfigIssue {
  readonly option: string;
  readonly message: string;
}

/** Thrown at boot when the options and environment do not make a valid deployment. */
export class PorterConfigError extends Error {
  constructor(
    readonly issues: ReadonlyArray<PorterConfigIssue>,
    options?: ErrorOptions,
  ) {
    super(`Invalid Porter configuration:\n${issues.map((i) => `  - ${i.option}: ${i.message}`).join('\n')}`, options);
    this.name = 'PorterConfigError';
  }
}
