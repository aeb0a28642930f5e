export {
  startPanSimulator, startPanAadhaarLinkSimulator,
  type PanSimulator, type PanSimulatorOptions, type PanAadhaarLinkSimulatorOptions, type SimulatorControls,
} from './simulator.js';
export { PAN_TEST_VALUES, VENDOR_PAN_TEST_VALUES, panScenario, linkScenario, type PanScenario, type LinkScenario } from './test-pans.js';
