import { startDevHost } from './dev-host.js';
import { PorterConfigError } from '../config/load-config.js';

try {
  const host = await startDevHost();
  console.log(`Porter ${host.porter.composition} host listening on ${host.url} (wire at ${host.url}${host.porter.mount})`);
  const stop = () => void host.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof PorterConfigError ? error.message : error);
  process.exit(1);
}
