/** Porter's public entry point: the factory and the types a host needs to call it. */
export { createPorter, type Porter } from './create-porter.js';
export { PorterConfigError } from './config/load-config.js';
export type { PorterOptions } from './config/config-schema.js';
export type { Principal } from '../domain/principal.js';
export type { WireRequest } from '../ports/wire-request.js';
export type { PrincipalResolver } from '../ports/principal-resolver.js';
