import {
  startAadhaarOtpSimulator, startLockerSimulator, startPanAadhaarLinkSimulator, startPanSimulator, startPennyDropSimulator, startPennyLessSimulator,
} from '@satyapan/sandbox';

/** The `sandbox` upstreams of the embedded default: real HTTP servers on loopback, never in-process fakes. */
export interface DemoUpstreams {
  locker: Awaited<ReturnType<typeof startLockerSimulator>>;
  otp: Awaited<ReturnType<typeof startAadhaarOtpSimulator>>;
  pennyDrop: Awaited<ReturnType<typeof startPennyDropSimulator>>;
  pennyLess: Awaited<ReturnType<typeof startPennyLessSimulator>>;
  /** PAN verification (Cashfree PAN 360's shape) and the e-filing portal's link status. */
  pan: Awaited<ReturnType<typeof startPanSimulator>>;
  panAadhaarLink: Awaited<ReturnType<typeof startPanAadhaarLinkSimulator>>;
  lockerClient: { clientId: string; clientSecret: string };
  close(): Promise<void>;
}

/** Starts the simulators; the demo's locker client may only return to `callbackUrls`. */
export async function startDemoUpstreams(callbackUrls: Record<'docvault' | 'entityvault', string>): Promise<DemoUpstreams> {
  const lockerClient = { clientId: 'satyapan-demo', clientSecret: 'satyapan-demo-locker-secret' };
  const locker = await startLockerSimulator({
    clients: [{ ...lockerClient, name: 'Satyapan demo', redirectUris: [callbackUrls.docvault, callbackUrls.entityvault] }],
  });
  const otp = await startAadhaarOtpSimulator();
  const pennyDrop = await startPennyDropSimulator();
  const pennyLess = await startPennyLessSimulator();
  const [pan, panAadhaarLink] = await Promise.all([startPanSimulator(), startPanAadhaarLinkSimulator()]);
  return {
    locker, otp, pennyDrop, pennyLess, pan, panAadhaarLink, lockerClient,
    async close() {
      await Promise.all([locker.close(), otp.close(), pennyDrop.close(), pennyLess.close(), pan.close(), panAadhaarLink.close()]);
    },
  };
}
