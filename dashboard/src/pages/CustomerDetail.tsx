import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { api } from '../api';
import { AccountsTable, type InternalAccount } from '../accounts';
import { DataState, DateTime, Empty, ErrorNotice, IdText, Loading, PageHeader, Pager, StatusBadge, TableScroll } from '../components';
import { useLoad, usePaged } from '../hooks';
import { linkProps } from '../router';
import { TransactionTable, type Transaction } from '../transactions';
import { customerName, type Customer } from './Customers';

interface Owner {
  id: string;
  roles: string[];
  ownershipPercentage: number;
  personalInfo: { firstName?: string; lastName?: string; nationality?: string; birthDate?: string };
  kycStatus: string;
}

interface DocumentMeta {
  id: string;
  documentHolder: string;
  documentType: string;
  country?: string;
  fileName: string;
  sizeBytes: number;
  createdAt: string;
}

interface ExternalAccount {
  id: string;
  status: string;
  currency: string;
  beneficiaryVerificationStatus: string;
  accountInfo: Record<string, unknown> & { accountType: string };
  createdAt: string;
}

function Section({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={4}>{title}</Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children ?? '—'}
      </Text>
    </div>
  );
}

function accountSummary(info: ExternalAccount['accountInfo']): string {
  const v = (k: string) => (typeof info[k] === 'string' ? (info[k] as string) : undefined);
  const identifier = v('iban') ?? v('accountNumber') ?? v('clabeNumber') ?? v('pixKey') ?? v('vpa') ?? v('phoneNumber') ?? v('address') ?? '';
  const masked = identifier.length > 8 ? `…${identifier.slice(-4)}` : identifier;
  return [info.accountType, v('bankName'), masked].filter(Boolean).join(' · ');
}

export function CustomerDetailPage({ id }: { id: string }) {
  const customer = useLoad(() => api.get<Customer>(`/customers/${encodeURIComponent(id)}`), [id]);
  const accounts = usePaged<InternalAccount>('/customers/internal-accounts', { customerId: id }, 50);
  const external = usePaged<ExternalAccount>('/customers/external-accounts', { customerId: id });
  const documents = usePaged<DocumentMeta>('/documents', { documentHolder: id });
  const transactions = usePaged<Transaction>('/transactions', { customerId: id }, 10);
  const c = customer.data;
  const owners = usePaged<Owner>(c?.customerType === 'BUSINESS' ? '/beneficial-owners' : null, { customerId: id });

  if (customer.error) {
    return (
      <>
        <PageHeader title="Customer" />
        <ErrorNotice error={customer.error} onRetry={customer.reload} />
        <Anchor {...linkProps('/customers')} mt="md" display="block">
          Back to customers
        </Anchor>
      </>
    );
  }
  if (!c) return <Loading label="Loading the customer" />;
  const business = c.customerType === 'BUSINESS';

  return (
    <>
      <Anchor {...linkProps('/customers')} size="sm">
        ← Customers
      </Anchor>
      <PageHeader
        title={customerName(c)}
        description={
          <Group gap="xs" component="span">
            <StatusBadge status={c.kycStatus} />
            <Badge variant="outline" size="sm">
              {c.customerType}
            </Badge>
            {c.isDeleted && (
              <Badge color="gray" size="sm">
                deleted
              </Badge>
            )}
            <Text span size="sm" c="dimmed">
              {c.umaAddress}
            </Text>
          </Group>
        }
      />
      <Stack>
        <Section title="Details">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Field label="Customer id">
              <IdText id={c.id} />
            </Field>
            <Field label="Your id">{c.platformCustomerId}</Field>
            <Field label="KYC status">
              <StatusBadge status={c.kycStatus} />
            </Field>
            <Field label="Currencies">{c.currencies.join(', ') || '—'}</Field>
            {business ? (
              <>
                <Field label="Legal name">{c.businessInfo?.legalName}</Field>
                <Field label="Registration number">{c.businessInfo?.registrationNumber}</Field>
                <Field label="Incorporated in">{c.businessInfo?.incorporationCountry}</Field>
                <Field label="Website">{c.businessInfo?.website}</Field>
              </>
            ) : (
              <>
                <Field label="Full name">{c.fullName}</Field>
                <Field label="Birth date">{c.birthDate}</Field>
                <Field label="Nationality">{c.nationality}</Field>
                <Field label="Region">{c.region}</Field>
              </>
            )}
            <Field label="Address">
              {c.address ? [c.address.line1, c.address.city, c.address.postalCode, c.address.country].filter(Boolean).join(', ') : null}
            </Field>
            <Field label="Created">
              <DateTime value={c.createdAt} />
            </Field>
            <Field label="Updated">
              <DateTime value={c.updatedAt} />
            </Field>
          </SimpleGrid>
        </Section>

        <Section title="Internal balances">
          <DataState
            loading={accounts.loading}
            error={accounts.error}
            onRetry={accounts.reload}
            what="Internal accounts"
            isEmpty={(accounts.data?.data.length ?? 0) === 0}
            empty={
              <Empty title="No internal accounts">Each enabled currency of the customer gets an account. Add currencies with PATCH /customers/{'{id}'}.</Empty>
            }
          >
            <AccountsTable rows={accounts.data?.data ?? []} onChanged={accounts.reload} />
          </DataState>
        </Section>

        <Section title="External accounts">
          <DataState
            loading={external.loading}
            error={external.error}
            onRetry={external.reload}
            what="External accounts"
            isEmpty={(external.data?.data.length ?? 0) === 0}
            empty={<Empty title="No external accounts">Register where this customer gets paid with POST /customers/external-accounts.</Empty>}
          >
            <TableScroll minWidth={640}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Currency</Table.Th>
                    <Table.Th>Account</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Beneficiary check</Table.Th>
                    <Table.Th>Id</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {external.data?.data.map((a) => (
                    <Table.Tr key={a.id}>
                      <Table.Td>{a.currency}</Table.Td>
                      <Table.Td>
                        <Text size="sm">{accountSummary(a.accountInfo)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={a.status} />
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={a.beneficiaryVerificationStatus} />
                      </Table.Td>
                      <Table.Td>
                        <IdText id={a.id} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
            <Pager list={external} />
          </DataState>
        </Section>

        {business && (
          <Section title="Beneficial owners">
            <DataState
              loading={owners.loading}
              error={owners.error}
              onRetry={owners.reload}
              what="Beneficial owners"
              isEmpty={(owners.data?.data.length ?? 0) === 0}
              empty={<Empty title="No beneficial owners">A business needs its owners and controllers: add them with POST /beneficial-owners.</Empty>}
            >
              <TableScroll minWidth={560}>
                <Table verticalSpacing="xs">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Name</Table.Th>
                      <Table.Th>Roles</Table.Th>
                      <Table.Th>Ownership</Table.Th>
                      <Table.Th>KYC</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {owners.data?.data.map((o) => (
                      <Table.Tr key={o.id}>
                        <Table.Td>{[o.personalInfo.firstName, o.personalInfo.lastName].filter(Boolean).join(' ')}</Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {o.roles.map((r) => (
                              <Badge key={r} size="xs" variant="light">
                                {r}
                              </Badge>
                            ))}
                          </Group>
                        </Table.Td>
                        <Table.Td>{o.ownershipPercentage}%</Table.Td>
                        <Table.Td>
                          <StatusBadge status={o.kycStatus} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </TableScroll>
              <Pager list={owners} />
            </DataState>
          </Section>
        )}

        <Section title="Documents">
          <DataState
            loading={documents.loading}
            error={documents.error}
            onRetry={documents.reload}
            what="Documents"
            isEmpty={(documents.data?.data.length ?? 0) === 0}
            empty={<Empty title="No documents">Upload identity or company documents with POST /documents (multipart).</Empty>}
          >
            <TableScroll minWidth={560}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>File</Table.Th>
                    <Table.Th>Size</Table.Th>
                    <Table.Th>Uploaded</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {documents.data?.data.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td>{d.documentType}</Table.Td>
                      <Table.Td>{d.fileName}</Table.Td>
                      <Table.Td>{(d.sizeBytes / 1024).toFixed(1)} KiB</Table.Td>
                      <Table.Td>
                        <DateTime value={d.createdAt} />
                      </Table.Td>
                      <Table.Td ta="right">
                        <Button size="xs" variant="subtle" component="a" href={`/2025-10-13/documents/${encodeURIComponent(d.id)}/content`}>
                          Download
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </TableScroll>
            <Pager list={documents} />
          </DataState>
        </Section>

        <Section title="Transactions">
          <DataState
            loading={transactions.loading}
            error={transactions.error}
            onRetry={transactions.reload}
            what="Transactions"
            isEmpty={(transactions.data?.data.length ?? 0) === 0}
            empty={<Empty title="No transactions for this customer">Payments to and from this customer appear here.</Empty>}
          >
            <TransactionTable rows={transactions.data?.data ?? []} showCustomer={false} />
            <Pager list={transactions} />
          </DataState>
        </Section>
      </Stack>
    </>
  );
}
