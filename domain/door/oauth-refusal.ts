import { DomainError, type ErrorCode } from '../errors.js';

/** The OAuth error codes the door answers with (RFC 6749 §4.1.2.1 and §5.2, RFC 7009, RFC 7591, RFC 6750). */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'invalid_token'
  | 'temporarily_unavailable';

const CODE_BY_STATUS: Readonly<Record<number, ErrorCode>> = { 400: 'validation', 401: 'unauthorized', 404: 'not-found' };

/**
 * A refusal in OAuth's own shape (`{error, error_description}`): the door's OAuth endpoints answer
 * with it instead of the wire envelope. It is still a DomainError, so if it ever reached the
 * envelope it would keep its status.
 */
export class OAuthRefusal extends DomainError {
  constructor(
    readonly oauthError: OAuthErrorCode,
    readonly description: string,
    readonly status: 400 | 401 | 404 = 400,
  ) {
    super(CODE_BY_STATUS[status] ?? 'validation', description);
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.oauthError, error_description: this.description };
  }
}
