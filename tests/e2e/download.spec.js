// The served lesson offers itself as one offline file: the link is there, and what it gives is the
// self-contained lesson (which itself has no download link, since it is already the download).
import { test, expect } from '@playwright/test';
import { openPage } from './helpers.js';

test('the "Download this lesson" link gives the one-file lesson', async ({ page, request }) => {
  const problems = await openPage(page, '/');
  const link = page.getByRole('link', { name: 'Download this lesson' });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('download', '');
  const href = await link.getAttribute('href');
  const res = await request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html).toContain('<tb-anatomy');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
  expect(html).not.toContain('Download this lesson');
  expect(problems).toEqual([]);
});
