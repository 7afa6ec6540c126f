import { ContainerModule } from 'inversify';
import { TOKENS } from '../tokens.js';
import type { PorterConfig } from '../config/config-schema.js';
import type { DoctorUseCases } from '../../ports/use-cases/doctor.js';
import { CheckPresent } from '../../application/doctor/check-present.js';
import { CheckActAs } from '../../application/doctor/check-act-as.js';
import { synthesizeRequest } from '../../adapters/http/synthetic-request.js';
import { doctorRoutes } from '../../adapters/http/routes/doctor-routes.js';
import type { WireRoutes } from '../../adapters/http/wire-routes.js';

/** Development only: the present and act-as checks (base-url is in every composition). */
export const doctorModule = new ContainerModule(({ bind }) => {
  bind<DoctorUseCases>(TOKENS.DoctorUseCases)
    .toDynamicValue((ctx) => {
      const config = ctx.get<PorterConfig>(TOKENS.Config);
      return {
        checkPresent: new CheckPresent(ctx.get(TOKENS.HostAccess), Boolean(config.baseUrl), config.mount),
        checkActAs: new CheckActAs(config.actAs ?? null, ctx.get(TOKENS.PrincipalResolver), synthesizeRequest, config.mount),
      };
    })
    .inSingletonScope();
  bind<WireRoutes>(TOKENS.WireRoutes).toDynamicValue((ctx) => doctorRoutes(ctx.get(TOKENS.DoctorUseCases)));
});
