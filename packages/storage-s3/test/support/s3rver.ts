// Starts s3rver (a real S3-compatible HTTP server) on a free loopback port for tests.
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

export interface S3rverHandle {
  endpoint: string;
  clientConfig: S3ClientConfig;
  close(): Promise<void>;
}

export async function startS3rver(directory: string, bucket: string): Promise<S3rverHandle> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = (await server.run()) as unknown as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    clientConfig: {
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    },
    close: () => server.close(),
  };
}
