import { aggregateOf } from '../aggregate.js';
import { redirectUriMatches } from './redirect-uri.js';

/** How a client proves itself at the token and revocation endpoints (RFC 7591 §2). */
export type ClientAuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';
export const CLIENT_AUTH_METHODS: ReadonlyArray<ClientAuthMethod> = ['none', 'client_secret_post', 'client_secret_basic'];

export interface DoorClientPrimitives {
  /** `mcpc_…`, minted by the door. */
  readonly id: string;
  readonly name: string;
  readonly redirectUris: ReadonlyArray<string>;
  readonly authMethod: ClientAuthMethod;
  /** SHA-256 of the client secret for confidential clients; the secret itself is never kept. */
  readonly secretHash: string | null;
  readonly clientUri: string | null;
  readonly logoUri: string | null;
  readonly softwareId: string | null;
  readonly softwareVersion: string | null;
  readonly registeredAt: string;
}

/** An MCP client (Claude, ChatGPT, Cursor…) registered with the door (RFC 7591). */
export class DoorClient extends aggregateOf<DoorClientPrimitives>().reading('id', 'name', 'authMethod', 'secretHash') {
  private constructor(props: DoorClientPrimitives) {
    super(props);
  }

  static register(props: DoorClientPrimitives): DoorClient {
    if (props.redirectUris.length === 0) throw new Error('a door client needs at least one redirect URI');
    if ((props.authMethod === 'none') !== (props.secretHash === null))
      throw new Error('a confidential client has a secret hash, a public one has none');
    return new DoorClient(props);
  }

  static fromPrimitives(props: DoorClientPrimitives): DoorClient {
    return new DoorClient(props);
  }

  get isPublic(): boolean {
    return this.props.authMethod === 'none';
  }

  /**
   * The host of the client's metadata document, for a client that names itself by one (its id is
   * that https URL): the one thing about it the door has checked, so the consent page shows it.
   */
  get documentHost(): string | null {
    return this.props.id.startsWith('https://') && URL.canParse(this.props.id) ? new URL(this.props.id).host : null;
  }

  /** The registered redirect URI the presented one matches, or null. */
  redirectFor(presented: string): string | null {
    return this.props.redirectUris.find((registered) => redirectUriMatches(registered, presented)) ? presented : null;
  }
}
