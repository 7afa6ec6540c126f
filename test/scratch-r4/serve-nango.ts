import { NangoBrokerServer } from '../support/nango-broker-server.js';
import { startDevHost } from '../../composition/dev-host/dev-host.js';
const nango = new NangoBrokerServer('nango-scratch-secret-0123456789');
const url = await nango.start();
const host = await startDevHost({ port: 3458, env: { NODE_ENV: 'development', PORTER_DATABASE_URL: 'sqlite::memory:', PORTER_SECRET: 'a-development-secret-for-the-tests-0123456789', NANGO_SECRET_KEY: nango.secretKey, NANGO_HOST: url } });
console.log('ready', host.url, url);
