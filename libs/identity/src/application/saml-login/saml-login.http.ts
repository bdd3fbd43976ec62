import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { Public } from '@app/kernel';
import { SamlLogin, type SignedIn } from './saml-login';
import { AssertionConsumerRequest } from './saml-login.request';

/** Whether an Accept header prefers HTML to JSON (a browser following the IdP's form). */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const quality = (type: string) => {
    let best = -1;
    for (const part of accept.split(',')) {
      const [range, ...params] = part.trim().toLowerCase().split(';');
      const q = Number(
        params
          .map((p) => p.trim())
          .find((p) => p.startsWith('q='))
          ?.slice(2) ?? '1',
      );
      const [major] = type.split('/');
      if (range === type || range === `${major}/*` || range === '*/*')
        best = Math.max(best, range === type ? q : q - 0.0001);
    }
    return best;
  };
  const html = quality('text/html');
  return html > 0 && html > quality('application/json');
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(signedIn: SignedIn): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Signed in</title></head>
<body>
<h1>You are signed in</h1>
<p>Your new API token is below. It is shown only this once: copy it now and keep it safe.</p>
<pre>${escapeHtml(signedIn.token)}</pre>
<p>User <code>${escapeHtml(signedIn.userId)}</code>, organization <code>${escapeHtml(signedIn.organizationId)}</code>.
Send it as <code>Authorization: Bearer &lt;token&gt;</code>.</p>
</body></html>
`;
}

/**
 * The SAML sign-in's public routes: no token (the person signing in has none yet). `start` sends the browser to
 * the IdP with an AuthnRequest, `acs` receives the IdP's answer, `metadata` describes this service to the IdP.
 */
@ApiTags('sso')
@Controller()
export class SamlLoginController {
  constructor(private readonly login: SamlLogin) {}

  @Public()
  @Get('orgs/:organizationId/saml/:samlProviderId/start')
  @ApiOperation({
    operationId: 'startSAMLSignIn',
    summary: "Sign in through a SAML provider: redirects (302) to the IdP's ssoURL with an AuthnRequest",
  })
  async start(
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const url = await this.login.start(organizationId, providerId);
    await reply.header('cache-control', 'no-store').redirect(url, 302);
  }

  @Public()
  @Post('orgs/:organizationId/saml/:samlProviderId/acs')
  @HttpCode(200)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiOperation({
    operationId: 'consumeSAMLResponse',
    summary:
      'Assertion Consumer Service: checks the IdP response, signs the person in and answers a new API token once ' +
      '(JSON, or an HTML page when the request prefers text/html)',
  })
  async acs(
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Body() body: AssertionConsumerRequest,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const signedIn = await this.login.consume(organizationId, providerId, body.SAMLResponse);
    void reply.header('cache-control', 'no-store');
    if (!prefersHtml(accept)) return signedIn;
    void reply.header('content-type', 'text/html; charset=utf-8');
    return page(signedIn);
  }

  @Public()
  @Get('orgs/:organizationId/saml/:samlProviderId/metadata')
  @ApiOperation({ operationId: 'getSAMLServiceProviderMetadata', summary: "This service's SAML SP metadata (XML)" })
  async metadata(
    @Param('organizationId') organizationId: string,
    @Param('samlProviderId') providerId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.header('content-type', 'application/samlmetadata+xml; charset=utf-8');
    return this.login.metadata(organizationId, providerId);
  }
}
