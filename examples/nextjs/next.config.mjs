import { withPorter } from 'porter-runtime/next';

/** Porter runs as a Node package, not bundled: it loads its database driver and optional packages itself. */
export default withPorter({});
