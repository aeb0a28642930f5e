// A first live check of the upstreams a deployment is configured with: it calls each configured provider once,
// with that provider's own sandbox test values (or the ones given), and prints what our adapter understood. No
// identity data is printed: the provider's code, our message and, for a failure, the status we would answer
// (the adapter's one log line, on stderr, names the cause of a 500). Run it against a provider's sandbox before
// going live: `npm run smoke:upstreams` (docs/OPERATIONS.md, "Upstreams").
import { readFileSync } from 'node:fs';
import { CashfreePennyDropProvider, SetuPennyLessProvider } from '@satyapan/bank';
import { createLogger, isServiceError, type Logger } from '@satyapan/core';
import { CashfreePanProvider, HttpOtpProvider, IncomeTaxLinkStatusProvider } from '@satyapan/kyc';

type Env = Readonly<Record<string, string | undefined>>;

interface Check {
  name: string;
  /** The variables it needs; the check is skipped when one is missing. */
  needs: string[];
  run(env: Env, logger: Logger): Promise<string>;
}

/** One Cashfree account serves the three products; a product's own URL variable, when set, wins (a test deployment may split them). */
const cashfree = (env: Env, logger: Logger, product?: string) => ({
  baseUrl: (product ? env[product] : undefined) ?? env['CASHFREE_VERIFICATION_URL']!, clientId: env['CASHFREE_CLIENT_ID']!, clientSecret: env['CASHFREE_CLIENT_SECRET']!,
  ...(env['CASHFREE_PUBLIC_KEY_FILE'] ? { publicKeyPem: readFileSync(env['CASHFREE_PUBLIC_KEY_FILE'], 'utf8') } : {}), logger,
});
const CASHFREE = ['CASHFREE_VERIFICATION_URL', 'CASHFREE_CLIENT_ID', 'CASHFREE_CLIENT_SECRET'];

/** Each provider's own sandbox values (its test-data pages), overridable with SMOKE_* variables. */
const CHECKS: readonly Check[] = [
  {
    name: 'penny drop (Cashfree bank-account/sync)',
    needs: CASHFREE,
    async run(env, logger) {
      const outcome = await new CashfreePennyDropProvider(cashfree(env, logger)).verify({
        accountNumber: env['SMOKE_BANK_ACCOUNT'] ?? '026291800001191', ifsc: env['SMOKE_IFSC'] ?? 'YESB0000262',
      });
      return `${outcome.providerCode}: "${outcome.message}"${exists(outcome.accountExists)}, ${outcome.definitive ? 'cached' : 'not cached'}`;
    },
  },
  {
    name: 'PAN 360 (Cashfree pan/advance)',
    needs: CASHFREE,
    async run(env, logger) {
      const provider = new CashfreePanProvider(cashfree(env, logger, 'CASHFREE_PAN_URL'));
      try {
        const record = await provider.lookup({ pan: env['SMOKE_PAN'] ?? 'ABCPV1234D', name: env['SMOKE_PAN_NAME'] ?? 'John Doe' });
        return `${record.providerCode}: ${record.valid ? 'valid' : 'invalid'} PAN${record.dateOfBirth ? ', date of birth read' : ''}${record.registeredName ? ', registered name read' : ''}`;
      } finally {
        provider.close();
      }
    },
  },
  {
    name: 'offline Aadhaar OTP (Cashfree offline-aadhaar/otp)',
    needs: CASHFREE,
    async run(env, logger) {
      const provider = new HttpOtpProvider(cashfree(env, logger, 'CASHFREE_AADHAAR_URL'));
      try {
        const sent = await provider.sendOtp(env['SMOKE_AADHAAR'] ?? '655675523712');
        return `${sent.outcome}${sent.referenceId !== null ? ', a reference id came back' : ''}`;
      } finally {
        provider.close();
      }
    },
  },
  {
    name: 'penny-less (Setu api/verify/ban/pennyless)',
    needs: ['SETU_URL', 'SETU_CLIENT_ID', 'SETU_CLIENT_SECRET', 'SETU_PRODUCT_INSTANCE_ID'],
    async run(env, logger) {
      const provider = new SetuPennyLessProvider({
        baseUrl: env['SETU_URL']!, clientId: env['SETU_CLIENT_ID']!, clientSecret: env['SETU_CLIENT_SECRET']!,
        productInstanceId: env['SETU_PRODUCT_INSTANCE_ID']!, logger,
      });
      try {
        const outcome = await provider.verify({ accountNumber: env['SMOKE_SETU_ACCOUNT'] ?? '1234567890', ifsc: env['SMOKE_SETU_IFSC'] ?? 'UTIB0002083' });
        return `${outcome.providerCode}${outcome.message ? `: "${outcome.message}"` : ''}${exists(outcome.accountExists)}`;
      } finally {
        provider.close();
      }
    },
  },
  {
    name: 'PAN-Aadhaar link status (e-filing portal getEntity)',
    needs: ['INCOME_TAX_PORTAL_URL', 'SMOKE_LINK_PAN', 'SMOKE_LINK_AADHAAR'],
    async run(env, logger) {
      const provider = new IncomeTaxLinkStatusProvider({ baseUrl: env['INCOME_TAX_PORTAL_URL']!, logger });
      try {
        const outcome = await provider.linkStatus({ pan: env['SMOKE_LINK_PAN']!, aadhaarNumber: env['SMOKE_LINK_AADHAAR']! });
        return `${outcome.providerCode}: ${outcome.state}`;
      } finally {
        provider.close();
      }
    },
  },
];

function exists(accountExists: boolean | undefined): string {
  return accountExists === undefined ? '' : accountExists ? ', account exists' : ', no such account';
}

/** Runs every configured check; true when each one's answer was understood (whatever it said about the test values). */
async function smokeUpstreams(env: Env, print: (line: string) => void, logger: Logger): Promise<boolean> {
  let understood = true;
  for (const check of CHECKS) {
    const missing = check.needs.filter((name) => !env[name]);
    if (missing.length > 0) {
      print(`- ${check.name}: skipped (set ${missing.join(', ')})`);
      continue;
    }
    try {
      print(`- ${check.name}: understood: ${await check.run(env, logger)}`);
    } catch (error) {
      if (!isServiceError(error)) throw error;
      // A 4xx is our reading of the provider refusing the test values: understood. A 5xx is an outage or our setup.
      if (error.status >= 500) understood = false;
      print(`- ${check.name}: ${error.status >= 500 ? 'FAILED' : 'understood'}: we would answer ${error.status} ${error.message}`);
    }
  }
  print('- DigiLocker / EntityLocker: not callable without a user: run a session through the demo (npm start)');
  return understood;
}

const logger = createLogger({ stream: process.stderr, level: process.env['LOG_LEVEL'] ?? 'warn' });
const ok = await smokeUpstreams(process.env, (line) => process.stdout.write(`${line}\n`), logger);
process.exitCode = ok ? 0 : 1;
