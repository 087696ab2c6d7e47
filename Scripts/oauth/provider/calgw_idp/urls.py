from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import views

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    # Ours first: the device-flow behaviour DOT leaves out (views.py).
    path("o/authorize/", views.AuthorizationView.as_view()),
    path("o/token/", views.TokenView.as_view()),
    path("o/device-authorization/", views.DeviceAuthorizationView.as_view()),
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
]
