import { get, porterModule, TOKENS } from '../tokens.js';
import { DOCTOR_TOKENS } from './doctor-tokens.js';
import { GUARD_TOKENS } from './guard-tokens.js';
import { CheckPresent } from '../../application/doctor/check-present.js';
import { CheckActAs } from '../../application/doctor/check-act-as.js';
import { synthesizeRequest } from '../../adapters/http/synthetic-request.js';
import { doctorRoutes } from '../../adapters/http/routes/doctor-routes.js';

/** Development only: the present and act-as checks (base-url is in every composition). */
export const doctorModule = porterModule((bind) => {
  bind.singleton(DOCTOR_TOKENS.DoctorUseCases, (ctx) => {
    const config = get(ctx, TOKENS.Config);
    return {
      checkPresent: new CheckPresent(get(ctx, GUARD_TOKENS.HostAccess), Boolean(config.baseUrl), config.mount),
      checkActAs: new CheckActAs(config.actAs ?? null, get(ctx, TOKENS.PrincipalResolver), synthesizeRequest, config.mount),
    };
  });
  bind(TOKENS.WireRoutes).toDynamicValue((ctx) => doctorRoutes(get(ctx, DOCTOR_TOKENS.DoctorUseCases)));
});
