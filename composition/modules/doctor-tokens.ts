import { token } from '../tokens.js';
import type { DoctorUseCases } from '../../ports/use-cases/doctor.js';

/** What doctor-module.ts binds. */
export const DOCTOR_TOKENS = {
  DoctorUseCases: token<DoctorUseCases>('DoctorUseCases'),
};
