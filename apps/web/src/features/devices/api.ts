/**
 * The door devices' admin calls (docs/decisions/107, 108, 116): the organization's devices, and the
 * writes — a setup QR code for an event (optionally one check-in list and a name), rename or move,
 * revoke — as TanStack mutations. Paths and shapes from the contract.
 */
import { type CreateEnrollmentRequest, CreateEnrollmentResponse, DeviceList, devicePaths, DeviceSummary, type UpdateDeviceRequest } from '@gatecheck/contract/devices';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client.ts';

/** How often (ms) the devices page asks again, so online and scans waiting follow the doors. */
export const DEVICES_REFRESH_MS = 30_000;

export const deviceQueries = {
  all: () => ['devices'] as const,
  /** GET every device of the organization, revoked ones too. @throws {ApiError} */
  list: (organizationId: string) =>
    queryOptions({
      queryKey: [...deviceQueries.all(), organizationId] as const,
      queryFn: ({ signal }) => apiRequest(devicePaths.listDevices(organizationId), { schema: DeviceList, signal }).then((answer) => answer.devices),
      refetchInterval: DEVICES_REFRESH_MS,
    }),
};

/** POST an enrollment for `eventId`: resolves to its one-time link and QR code (shown once). */
export function useCreateEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ eventId, request }: { eventId: string; request: CreateEnrollmentRequest }) =>
      apiRequest(devicePaths.createEnrollment(eventId), { method: 'POST', body: request, schema: CreateEnrollmentResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceQueries.all() }),
  });
}

/** POST a new name, event or check-in list of a device; the answer replaces it in the cached list. */
export function useUpdateDevice(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ deviceId, request }: { deviceId: string; request: UpdateDeviceRequest }) =>
      apiRequest(devicePaths.updateDevice(deviceId), { method: 'POST', body: request, schema: DeviceSummary }),
    onSuccess: (device) => replaceDevice(queryClient, organizationId, device),
  });
}

/** POST revoke of a device: its next request is refused; the answer replaces it in the cached list. */
export function useRevokeDevice(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceId: string) => apiRequest(devicePaths.revokeDevice(deviceId), { method: 'POST', schema: DeviceSummary }),
    onSuccess: (device) => replaceDevice(queryClient, organizationId, device),
  });
}

function replaceDevice(queryClient: ReturnType<typeof useQueryClient>, organizationId: string, device: DeviceSummary): void {
  queryClient.setQueryData(deviceQueries.list(organizationId).queryKey, (devices) => devices?.map((entry) => (entry.id === device.id ? device : entry)));
}
