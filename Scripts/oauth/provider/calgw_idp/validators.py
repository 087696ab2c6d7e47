"""What the test server changes in django-oauth-toolkit's validator."""

from oauth2_provider.models import AbstractApplication
from oauth2_provider.oauth2_validators import OAuth2Validator

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


class Validator(OAuth2Validator):
    def get_additional_claims(self, request):
        """The id token and userinfo carry the e-mail address (scope `email`), so a client can
        say whom it signed in as."""
        user = request.user
        return {"email": user.email, "email_verified": True, "preferred_username": user.get_username()}

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        """A client registered for the authorization code grant may also use the device grant,
        as one app registration does at Microsoft or Keycloak (DOT allows one grant per app)."""
        if grant_type == DEVICE_GRANT and client.allows_grant_type(AbstractApplication.GRANT_AUTHORIZATION_CODE):
            return True
        return super().validate_grant_type(client_id, grant_type, client, request, *args, **kwargs)
