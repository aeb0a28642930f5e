export { mountQueueDashboard, basicAuth, type AdminAccount, type MountPoint, type QueueDashboardOptions } from './dashboard.js';
