export { startLockerSimulator, type LockerSimulator, type LockerSimulatorOptions } from './simulator.js';
export type { SimulatorClient, LockerKind } from './authorization-state.js';
export {
  INDIVIDUALS as LOCKER_INDIVIDUALS, ENTITIES as LOCKER_ENTITIES,
  type LockerUser, type LockerEntity, type LockerDocType, type IndividualDocType, type EntityDocType, type Gender,
} from './fixtures.js';
export { answerConsentPage, type ConsentAnswer } from './consent-client.js';
